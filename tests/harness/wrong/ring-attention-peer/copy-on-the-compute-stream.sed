# ring-attention-peer, wrong: every rank's copy of the next block goes on
# streams[r], the stream its attention runs on, so a GPU runs the copy and
# the attention one after the other and the ring's communication is never
# hidden.  The order is still right (no race, the values pass); what
# fails is the overlap the check asks for on simt's modelled timeline.
# expect: wrong
# case: copy/compute overlap ranks=3 n=33 d=16
# predict: h100-sxm
s|        cudaStreamCreateWithFlags(&g.copy\[r\], cudaStreamNonBlocking);|        g.copy[r] = streams[r];|
/        cudaStreamDestroy(g.copy\[r\]);/d
