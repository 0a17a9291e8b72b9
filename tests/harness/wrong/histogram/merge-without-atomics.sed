# histogram, wrong: each block adds its private counts to the global bins
# with a plain read-modify-write instead of atomicAdd, so two blocks that
# merge the same bin at once lose one's counts.  Blocks that happen not to
# merge at the same moment lose nothing, so the counts may come out right;
# simt's hazard checks report the race between blocks whatever the timing.
# expect: hazard
s|            atomicAdd(&bins\[b\], c);|            bins[b] += c;|
