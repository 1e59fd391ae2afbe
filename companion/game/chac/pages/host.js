"use strict";
// Temple of Chac's part of the host page: the faces each alcove roll needs (house rule
// CHAC-ALC-1), typed as digits since they are not one value from a list, and what to do
// once the game has started.
Parts.define("chac", (() => {
  const ALCOVES = [["lava", "Lava alcove needs faces", "123"], ["chasm", "Chasm alcove needs faces", "12345"]];
  return {
    setupHint: "One player: co-op only. Once started, choose the first dicekeeper (the oldest player) under Table commands, or in co-op with triplets enter each player's roll.",
    setupFields(el) {
      return ALCOVES.map(([kind, label, faces]) => el("label", {}, label + " ",
        el("input", { name: `alcove_${kind}`, value: faces, inputmode: "numeric", maxlength: "5", style: "width:7rem", "aria-label": label })));
    },
    setupOptions(form, options) {
      options.alcove_faces = {};
      for (const [kind] of ALCOVES) {
        const typed = form.querySelector(`[name=alcove_${kind}]`).value;
        options.alcove_faces[kind] = typed.replace(/[^1-6]/g, "").split("").map(Number);
      }
    },
  };
})());
