"""The dice reader's inner loops, in C (a compiler and Python's headers at install); everything
else about the distribution is in pyproject.toml. Here rather than in pyproject.toml's
`[tool.setuptools.ext-modules]`, which setuptools still calls experimental and warns about."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "companion.dice.kernels",
            sources=["companion/dice/kernels.c"],
            extra_compile_args=["-O2", "-ffp-contract=off"],
        ),
        # The pip search's whole-frame passes: -O3 turns their byte loops into vector
        # instructions.
        Extension(
            "companion.dice.filters",
            sources=["companion/dice/filters.c"],
            extra_compile_args=["-O3"],
        ),
    ]
)
