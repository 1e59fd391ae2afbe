"""The product's own names, in one place: what people read, and what the system knows it by."""

NAME = "Chac Companion"  # on the OLED before a game, in the mDNS service name, in messages
PACKAGE = "chac-companion"  # the distribution (pip), the systemd unit, /var/lib/<PACKAGE>
HOST_NAME = "chac"  # the host name announced over mDNS by default: http://chac.local
LOG_MARK = b"CHAC"  # the SQLite application_id of its event logs (never change: old logs)
