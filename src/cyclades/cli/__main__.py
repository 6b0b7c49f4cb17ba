"""`python -m cyclades.cli`: the same as `cyclades`."""
from cyclades.cli import main

main()
