# ring-attention-peer, wrong: the copy of step s on rank r's second stream
# no longer waits for rank r's attention of step s - 1, which still reads
# the slot the copy overwrites.  simt runs one stream at a time, so the
# values stay right; on a GPU the attention would read half of the next
# block.  simt's hazard checks report the race between the two streams.
# expect: hazard
s|            cudaStreamWaitEvent(g.copy\[r\], g.attended\[r\], 0);|            // no wait for the attention|
