"""Print a cProfile run the same way in every benchmark: a headline, then the top functions by
their own time and by cumulative time."""
import io
import pstats


def print_profile(prof, headline, top):
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.strip_dirs()
    print(headline)
    for key in ("tottime", "cumulative"):
        out.seek(0)
        out.truncate()
        stats.sort_stats(key).print_stats(top)
        print(out.getvalue())
