# flash-attention-forward, wrong: every query block stops at the keys the
# first block needs (kBr of them) under the causal mask, so rows from 128
# on never see keys 128 and later.  Every shape of 128 rows or fewer passes.
# expect: wrong
# case: bh=2 seq=300 d=32 causal=1
s|int kend = causal ? min(seq, q0 + kBr) : seq;|int kend = causal ? min(seq, kBr) : seq;|
