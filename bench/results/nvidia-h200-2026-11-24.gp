# gpuk-bench charts, 2026-11-24T05:32:33Z: run 'gnuplot nvidia-h200.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:4096]
set yrange [0.986163:1.25035e+06]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-24T05:32:33Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
682.667 973.588 5 ""
1365.33 3236.39 5 ""
1365.33 7820.2 5 ""
1365.33 14780 5 ""
1365.33 20435.2 5 ""
1365.33 32028.2 5 ""
1365.33 35948.1 5 ""
1365.33 40314 5 ""
1365.33 47505.6 5 ""
1365.33 47850.5 5 ""
1365.33 51099.5 5 ""
1365.33 416782 5 "matmul cublas_tf32"
341.333 976.75 7 ""
341.333 5242.34 7 ""
341.333 8319.27 7 ""
341.333 16987 7 ""
341.333 19963.8 7 ""
341.333 32667.6 7 ""
341.333 37326 7 ""
341.333 39968.3 7 ""
341.333 47008.4 7 ""
341.333 47448.8 7 ""
341.333 50381.9 7 "batched_matmul cublas"
682.667 973.481 9 ""
682.667 4731.99 9 ""
682.667 8170.98 9 ""
682.667 17790.8 9 ""
682.667 21629.8 9 ""
682.667 24525.8 9 ""
682.667 973.41 9 ""
682.667 22289.4 9 ""
682.667 29560.2 9 ""
682.667 54717.1 9 "minplus dpx_i16x2"
0.249969 1081.36 13 "reduce smem_tree"
0.249969 1054.79 13 ""
0.249969 1024.74 13 ""
0.249969 1024.23 13 ""
0.0833333 299.898 4 ""
0.0833333 349.778 4 "add float4"
0.125 372.364 6 ""
0.125 498.304 6 "scale float4"
0.125 371.878 8 ""
0.125 497.831 8 "relu float4"
0.249985 735.282 10 ""
0.249985 984.827 10 "bias_relu float4"
0.625 1559.95 1 ""
0.625 1407.43 1 ""
0.625 2502.84 1 "softmax one_pass"
0.249027 1008.68 3 "meanpool block_row"
0.228571 211.206 14 ""
0.228571 206.426 14 ""
0.228571 256.083 14 ""
0.228571 272.219 14 "spmv stream"
0.228571 263.133 14 ""
0.25 1060.56 15 "dot cublas"
0.499878 1487.84 2 "gemv cublas"
1365.33 51129.5 11 "gemm cublas"
EOD
plot \
  roof(x, 64852.8, 4148.41) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cuda fma roof 6.485e+04, copy 4148 GB/s', \
  roof(x, 28959.9, 4148.41) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cuda add+min roof 2.896e+04, copy 4148 GB/s', \
  NaN w p pt 7 ps 1.4 lc rgb '#1f77b4' t 'cuda rungs: NVIDIA H200', \
  $be0 u 1:2:3 w p pt variable ps 1.4 lc rgb '#1f77b4' notitle, \
  $be0 u 1:2:4 w labels left offset 1,0 font ',8' tc rgb '#1f77b4' notitle, \
  NaN w p pt 5 ps 1.4 lc rgb 'gray40' t 'matmul', \
  NaN w p pt 7 ps 1.4 lc rgb 'gray40' t 'batched_matmul', \
  NaN w p pt 9 ps 1.4 lc rgb 'gray40' t 'minplus', \
  NaN w p pt 13 ps 1.4 lc rgb 'gray40' t 'reduce', \
  NaN w p pt 4 ps 1.4 lc rgb 'gray40' t 'add', \
  NaN w p pt 6 ps 1.4 lc rgb 'gray40' t 'scale', \
  NaN w p pt 8 ps 1.4 lc rgb 'gray40' t 'relu', \
  NaN w p pt 10 ps 1.4 lc rgb 'gray40' t 'bias_relu', \
  NaN w p pt 1 ps 1.4 lc rgb 'gray40' t 'softmax', \
  NaN w p pt 3 ps 1.4 lc rgb 'gray40' t 'meanpool', \
  NaN w p pt 14 ps 1.4 lc rgb 'gray40' t 'spmv', \
  NaN w p pt 15 ps 1.4 lc rgb 'gray40' t 'dot', \
  NaN w p pt 2 ps 1.4 lc rgb 'gray40' t 'gemv', \
  NaN w p pt 11 ps 1.4 lc rgb 'gray40' t 'gemm'

# ---- ladder: matmul
$ladder_matmul << EOD
0 "cuda naive" 0.0385555 0.0385337 0.0386289 2.27936 2.27661 2.28118 17.7253 17.7229 17.7365 141.167 141.149 141.182 NaN NaN NaN
1 "cuda coalesced" 0.0225983 0.02256 0.022685 0.430608 0.429632 0.432512 3.29298 3.28848 3.29584 43.2322 43.206 43.2519 339.734 339.673 339.747
2 "cuda tiled" 0.00944614 0.00942971 0.00946171 0.276471 0.276215 0.276905 2.10106 2.09878 2.10339 16.6466 16.6367 16.6574 140.599 140.503 140.741
3 "cuda blocktile_1d" 0.0247043 0.0246906 0.0247329 0.135191 0.135087 0.135264 1.10077 1.09686 1.10832 9.29309 9.27552 9.3129 74.3921 74.3031 74.4895
4 "cuda blocktile_2d" 0.0553552 0.0553099 0.0556363 0.187528 0.187373 0.18791 0.84308 0.840832 0.846304 6.83234 6.82381 6.83498 53.8048 53.7413 53.9187
5 "cuda vec4" 0.050836 0.050812 0.050969 0.17153 0.171107 0.171788 0.534597 0.53344 0.537408 4.3344 4.23155 4.43197 34.3295 34.1092 34.6757
6 "cuda warptile" 0.0400724 0.0400267 0.04016 0.151545 0.151459 0.151848 0.47228 0.47192 0.473032 3.76642 3.76006 3.77779 30.5861 30.4974 30.6659
7 "cuda warptile_db" 0.0139369 0.0139204 0.0139699 0.0707073 0.0706093 0.0708853 0.440672 0.440312 0.440992 3.45514 3.4521 3.45578 27.2737 27.2682 27.2768
8 "cuda warptile_at" 0.0127928 0.0127791 0.0128 0.062656 0.0625669 0.0628446 0.375872 0.375456 0.376397 2.93816 2.93667 2.94406 23.1449 23.1326 23.1524
9 "cuda warptile_wide" 0.019232 0.0192134 0.0192458 0.0620723 0.0617813 0.062368 0.366406 0.366266 0.367494 2.89018 2.88694 2.90093 22.9781 22.9428 23.0019
10 "cuda cublas" 0.012224 0.0118314 0.0233914 0.0565212 0.0563975 0.0570548 0.341514 0.341261 0.343341 2.69141 2.68902 2.69242 21.5171 21.4932 21.5471
11 "cuda cublas_tf32" 0.00648847 0.00627388 0.00656988 0.0136942 0.0136437 0.0137674 0.0495859 0.0488192 0.049769 0.3404 0.339539 0.341338 2.6381 2.62899 2.64317

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:11.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk matmul ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cuda naive" 0.0114489 0.0114356 0.0114827 0.574747 0.57424 0.575179 4.4545 4.45238 4.46035 35.284 35.2807 35.294 281.421 281.411 281.428
1 "cuda coalesced" 0.00726922 0.00726029 0.00727977 0.110339 0.110122 0.110642 0.883024 0.88192 0.884704 6.63285 6.62954 6.63434 52.4342 52.405 52.5076
2 "cuda tiled" 0.0039538 0.00393861 0.00396212 0.0712966 0.0712576 0.0716314 0.534171 0.533675 0.535115 4.16446 4.16138 4.16893 33.0411 33.0365 33.0526
3 "cuda blocktile_1d" 0.00796213 0.00795373 0.00797399 0.0362606 0.0362354 0.0363086 0.295021 0.294453 0.295504 2.11454 2.10822 2.11901 16.1816 16.1695 16.1879
4 "cuda blocktile_2d" 0.0137438 0.0137313 0.013762 0.0606941 0.0605859 0.0607647 0.255303 0.254885 0.255831 1.73098 1.72774 1.73309 13.7688 13.755 13.7873
5 "cuda vec4" 0.0121714 0.0121563 0.0122286 0.0561311 0.0560991 0.0562168 0.182754 0.182272 0.183286 1.1125 1.09776 1.13453 8.4144 8.40029 8.44778
6 "cuda warptile" 0.0116187 0.0116072 0.0116436 0.0406037 0.0405893 0.0406267 0.137001 0.136667 0.137228 0.98848 0.983424 0.993184 7.36426 7.33366 7.40454
7 "cuda warptile_db" 0.0105446 0.0105266 0.0105864 0.0293517 0.0292591 0.0295508 0.116137 0.115926 0.11634 0.881184 0.879712 0.881936 6.87739 6.87635 6.87942
8 "cuda warptile_at" 0.00929693 0.00926788 0.00931107 0.0276419 0.0275892 0.0277196 0.0990889 0.0989813 0.0995716 0.74968 0.748992 0.75048 5.84742 5.84214 5.85392
9 "cuda warptile_wide" 0.0148822 0.0148609 0.0148883 0.028195 0.0281618 0.0282465 0.0979769 0.097776 0.0980302 0.740976 0.740464 0.741312 5.79315 5.79149 5.79827
10 "cuda cublas" 0.00812409 0.00788562 0.00824034 0.0172055 0.0171683 0.0173225 0.091008 0.0908409 0.0911591 0.692064 0.691216 0.69312 5.45589 5.45334 5.4856

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-batched_matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:10.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cuda naive" 0.0386389 0.0386164 0.0386857 2.28194 2.28013 2.28349 17.7386 17.7332 17.7429 141.183 141.174 141.228 0.0383947 0.0383238 0.038477 2.29008 2.28026 2.3001 17.7431 17.7392 17.7451 141.193 141.179 141.217
1 "cuda transposed" 0.0211635 0.0211419 0.021225 0.454904 0.454256 0.455408 3.53 3.51958 3.53754 29.0446 29.0277 29.1081 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 "cuda tiled" 0.00927072 0.00926225 0.00928054 0.27637 0.276123 0.276434 2.10475 2.10157 2.10717 16.8204 16.8151 16.8321 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 "cuda regtile_4x4" 0.0302755 0.030262 0.0303642 0.146209 0.146144 0.146469 1.06013 1.05894 1.0633 7.7253 7.70893 7.74029 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 "cuda regtile_8x8" 0.0613964 0.0608033 0.0620028 0.22965 0.229548 0.23026 0.812488 0.810992 0.81472 6.35414 6.33603 6.37459 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 "cuda pipelined" 0.0516755 0.051627 0.051729 0.19747 0.197244 0.200836 0.730528 0.729312 0.73248 5.60386 5.59978 5.62266 0.056984 0.0569013 0.0574016 0.220522 0.220456 0.22072 0.799664 0.798768 0.800688 6.16611 6.16003 6.17651
6 "cuda dpx" NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.0428435 0.0428119 0.0428726 0.160561 0.160506 0.160727 0.604192 0.603669 0.604757 4.64946 4.64845 4.65021
7 "cuda dpx_i16x2" NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.0693459 0.0692557 0.0694285 0.197147 0.196988 0.197358 0.387594 0.38736 0.388275 2.51181 2.51034 2.5199

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-minplus.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:7.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk minplus ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_minplus u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_minplus u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_minplus u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_minplus u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_minplus u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 i32', \
  $ladder_minplus u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 i32', \
  $ladder_minplus u 1:21:22:23:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 i32', \
  $ladder_minplus u 1:24:25:26:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096 i32'

# ---- ladder: transpose
$ladder_transpose << EOD
0 "cuda naive" 0.017942 0.0179081 0.0179695 0.281984 0.281307 0.283264 1.08358 1.07594 1.09018
1 "cuda smem" 0.007206 0.00719573 0.00726107 0.0826604 0.0825265 0.0827767 0.312944 0.311872 0.313131
2 "cuda smem_padded" 0.00436219 0.00435105 0.00439905 0.0453627 0.0452645 0.0454519 0.172302 0.17216 0.172717
3 "cuda tile64" 0.00370325 0.00362216 0.00386445 0.0364618 0.0364 0.0364931 0.137471 0.137312 0.137578

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-transpose.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:3.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk transpose ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cuda smem_tree" 0.0044347 0.00382836 0.00488332 0.0191017 0.0190434 0.0191467 0.0620594 0.0618789 0.0621634
1 "cuda warp_shuffle" 0.0045115 0.00423494 0.00484029 0.019816 0.0197686 0.0198876 0.0636229 0.0634823 0.0637954
2 "cuda grid_stride" 0.00471929 0.00471215 0.00510349 0.021379 0.0213234 0.0214967 0.0654886 0.065421 0.0656083
3 "cuda lanes_inner" 0.00475074 0.00471032 0.00489305 0.0213398 0.0213049 0.0213773 0.0655211 0.0654263 0.065744

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-reduce.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:3.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk reduce ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cuda coalesced" 0.00375098 0.00365419 0.00395403 0.00507948 0.00506805 0.00508488 0.060032 0.0598684 0.0601861 0.223772 0.223044 0.224248
1 "cuda float4" 0.00369729 0.00293709 0.00377922 0.00365836 0.00300699 0.00410325 0.0498683 0.0497627 0.0498962 0.191861 0.191452 0.192132

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-add.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk add ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cuda coalesced" 0.00363632 0.00348288 0.00386224 0.00488164 0.00487221 0.00491364 0.0481115 0.0479219 0.0482108 0.180224 0.17968 0.18057
1 "cuda float4" 0.00328168 0.0027456 0.00373824 0.00363535 0.00335768 0.00410761 0.0357902 0.0356999 0.0358791 0.134674 0.134562 0.13486

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-scale.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk scale ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cuda coalesced" 0.0034888 0.00339184 0.00363296 0.0048828 0.00487708 0.00489156 0.0480861 0.0479887 0.0481958 0.180459 0.180045 0.180886
1 "cuda float4" 0.00328307 0.00313617 0.00355631 0.00346748 0.00320352 0.00373076 0.0357564 0.0356651 0.0358123 0.134802 0.134617 0.134976

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-relu.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk relu ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cuda coalesced" 0.00653191 0.00652043 0.00654437 0.048968 0.0488518 0.049072 0.182539 0.182262 0.18272
1 "cuda float4" 0.00371754 0.00370249 0.0039021 0.0369001 0.0368313 0.0370515 0.136286 0.136145 0.136342

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-bias_relu.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cuda coalesced" 0.00368367 0.00362237 0.00377845 0.00484686 0.00484135 0.00503647 0.0480742 0.047839 0.0484257 0.179965 0.179514 0.180522
1 "cuda float4" 0.00341675 0.00287285 0.00365478 0.00353174 0.00322139 0.00432017 0.0357636 0.0357141 0.0359865 0.134722 0.134496 0.134811

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-copy.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk copy ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cuda block_row" 0.00550698 0.00549239 0.00553129 0.0498833 0.04984 0.0502372 0.2151 0.21448 0.215576
1 "cuda online" 0.00837373 0.0083664 0.00838427 0.0625268 0.0623763 0.0627935 0.23841 0.237468 0.239124
2 "cuda one_pass" 0.00483382 0.00481924 0.00485752 0.0360447 0.0359855 0.0361265 0.134065 0.133772 0.134388

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-softmax.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:2.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk softmax ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cuda block_row" 0.0629205 0.0589621 0.0778955 0.226217 0.215735 0.348361 0.565291 0.559435 0.597579

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-embedding.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk embedding ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cuda block_row" 0.0135866 0.0135624 0.0135985 0.0348434 0.0347982 0.0350293 0.0665317 0.0664702 0.0667495

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-meanpool.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk meanpool ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cuda scalar" 0.0366359 0.0365358 0.0367494 0.14527 0.144977 0.145562 0.635483 0.632619 0.638389 1.48398 1.48298 1.48592 10.476 10.4259 10.6364 10.8311 10.6337 10.864
1 "cuda vector" 0.0387895 0.0386815 0.0389636 0.165485 0.164692 0.166243 0.650197 0.64768 0.654848 0.0952858 0.0934574 0.098416 0.911984 0.900016 0.923392 1.02682 1.02285 1.03562
2 "cuda adaptive" 0.0316006 0.0315796 0.031739 0.130246 0.130194 0.130448 0.524117 0.522176 0.524779 0.0443446 0.0442422 0.0444489 0.153039 0.152712 0.153261 0.567712 0.565835 0.569056
3 "cuda stream" 0.0355435 0.0354958 0.0355705 0.12908 0.128834 0.129163 0.493051 0.492523 0.493568 0.0361948 0.0360996 0.0363321 0.123406 0.123249 0.12384 0.458952 0.458528 0.459408
4 "cuda cusparse" 0.0421328 0.0420235 0.0421632 0.135175 0.134661 0.136357 0.510075 0.509344 0.510549 0.0393141 0.0392689 0.0393895 0.125554 0.125415 0.12579 0.469268 0.46872 0.469736

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-spmv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk spmv ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cuda cublas" 0.00867059 0.0078491 0.00963984 0.0374564 0.0373721 0.0452964 0.126554 0.126299 0.127589

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-dot.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk dot ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cuda cublas" 0.00631927 0.00621855 0.00719055 0.0231762 0.023038 0.0234941 0.0902098 0.0896249 0.0907858

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-gemv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk gemv ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cuda cublas" 0.0130556 0.0122113 0.0140908 0.0566425 0.0565317 0.0576 0.342349 0.341293 0.347411 2.69398 2.69139 2.72794 21.5044 21.4988 21.5944

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-gemm.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk gemm ladder: time per rung, 2026-11-24T05:32:33Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
