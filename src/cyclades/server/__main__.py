"""`python -m cyclades.server`: the same as `cyclades serve`."""
from .cli import serve

serve(prog_name="python -m cyclades.server")
