# vector-add, wrong: solve() adds the one element of n == 1 in host code,
# reading and writing device memory through the pointers it was given.  On
# a GPU that is a segmentation fault, and so it is on simt, whose device
# memory lies where host code cannot touch it (were it plain host memory,
# the sum would come out right and the check pass).  The program dies of
# the fault, saying which line of host code touched which allocation.
# expect: runtime_error
# signal: SIGSEGV
# stderr: simt: host code read byte 0 of a cudaMalloc allocation (4 bytes, made at harness.cu:
# stderr: ) at wrong.cu:
# stderr: in solve(); device memory is only reachable from kernels or cudaMemcpy
/^void solve/,/^{/ s|^{$|{\n    if (n == 1) { c[0] = a[0] + b[0]; return; }|
