"""Root test configuration, loaded before any test module imports numpy.

The tests run the engines as the app does (scripts/serve.py): with one BLAS thread. CI runs on a loaded
2-core machine, where OpenBLAS's worker threads make each large dot product wait for a time slice (a
sample-size search took 40 s instead of 3 s with four busy processes), so a test's time would depend on the load.
"""

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
