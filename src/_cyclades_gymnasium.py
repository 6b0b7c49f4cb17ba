"""Registers the Gymnasium id "cyclades/Cyclades-v0" as soon as Gymnasium is imported, so that
`gymnasium.make("cyclades/Cyclades-v0")` works in any program once cyclades is installed,
without importing cyclades first.

Gymnasium 1.x reads no plug-in entry points (it dropped them in 1.0), so the package installs a
one-line file, `cyclades-gymnasium.pth`, that Python runs at start-up: it imports this module,
which adds an import hook and nothing else (it imports neither cyclades nor Gymnasium). When a
program imports Gymnasium, the hook registers the id with its entry point as a string:
cyclades itself is imported only by `gymnasium.make`. `cyclades.env.gym` registers it too, the
same way (`register`), for a checkout run without installing it.
"""
import importlib.abc
import importlib.machinery
import sys

ENV_ID = "cyclades/Cyclades-v0"
ENTRY_POINT = "cyclades.env.gym:CycladesEnv"


def register(gymnasium) -> None:
    """Register ENV_ID with `gymnasium` (the module), once. Without Gymnasium's checker and
    order-enforcing wrappers, so that `gymnasium.make(ENV_ID)` is the environment itself and
    `env.action_masks()` works as written (the environment refuses a step or a render before
    reset itself)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=ENTRY_POINT, disable_env_checker=True, order_enforce=False)


class _Loader(importlib.abc.Loader):
    """Gymnasium's own loader, and the registration once its package has run."""

    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        module.__spec__.loader = module.__loader__ = self.inner  # the module keeps its own loader
        self.inner.exec_module(module)
        register(module)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the `gymnasium` package as the path finder does, with `_Loader` around its loader."""

    def find_spec(self, name, path=None, target=None):
        if name != "gymnasium":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


if "gymnasium" in sys.modules:
    register(sys.modules["gymnasium"])
elif not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder())
