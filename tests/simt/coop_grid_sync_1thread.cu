// expect: exit=0 env=CUDALAB_SIMT_THREADS=1 stdout=ok coop_grid_sync
// coop_grid_sync.cu with simt running every block on one host thread: the
// blocks of a cooperative launch must still all make progress while others
// wait at grid.sync(). On a GPU it is the same program again.
#include "coop_grid_sync.cu"
