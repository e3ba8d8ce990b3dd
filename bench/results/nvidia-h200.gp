# gpuk-bench charts, 2026-11-21T13:42:24Z: run 'gnuplot nvidia-h200.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'nvidia-h200-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:4096]
set yrange [0.0593743:1.26068e+06]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-21T13:42:24Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.493803 5 ""
341.333 15.1115 5 ""
1365.33 1712.34 5 ""
1365.33 2155.45 5 "matmul openblas"
42.6667 1.74556 7 ""
85.3333 14.5718 7 ""
341.333 1228.66 7 "batched_matmul simd"
341.333 1141.21 7 ""
42.6667 1.34205 9 ""
170.667 7.3516 9 ""
341.333 17.1431 9 ""
341.333 52.0056 9 ""
682.667 166.024 9 ""
682.667 594.608 9 "minplus v4"
682.667 568.089 9 ""
0.249969 1.33756 13 ""
0.249969 79.9431 13 "reduce simd"
0.0833333 0.941279 4 ""
0.0833333 9.95491 4 "add simd"
0.125 1.30307 6 ""
0.125 17.7535 6 "scale simd"
0.125 0.198202 8 ""
0.125 19.548 8 "relu simd"
0.249985 0.343595 10 ""
0.249985 35.9483 10 "bias_relu simd"
0.625 0.977076 1 ""
0.625 46.0215 1 "softmax simd"
0.249027 0.761132 3 ""
0.249027 36.4724 3 "meanpool simd"
0.228571 0.422428 14 ""
0.228571 3.83682 14 "spmv omp"
0.228571 3.72696 14 ""
0.25 2.46012 15 ""
0.25 28.8785 15 "dot simd"
0.25 4.27177 15 ""
0.499878 2.58932 2 ""
0.499878 75.0989 2 ""
0.499878 102.25 2 "gemv openblas"
170.667 0.478196 11 ""
1365.33 1648.56 11 ""
1365.33 2093.44 11 "gemm openblas"
EOD
$be1 << EOD
1365.33 981.752 5 ""
1365.33 3240.97 5 ""
1365.33 7895.8 5 ""
1365.33 15115.1 5 ""
1365.33 20639.9 5 ""
1365.33 32650.5 5 ""
1365.33 35750.1 5 ""
1365.33 40305.6 5 ""
1365.33 45906 5 ""
1365.33 51047.3 5 ""
1365.33 420226 5 "matmul cublas_tf32"
341.333 8316.36 7 ""
341.333 50365.9 7 "batched_matmul cublas"
682.667 972.096 9 ""
682.667 4814.02 9 ""
682.667 8014.34 9 ""
682.667 18639.7 9 ""
682.667 21575.4 9 ""
682.667 24500.1 9 "minplus v5"
0.249969 1033.84 13 "reduce smem_tree"
0.249969 1009.95 13 ""
0.249969 980.894 13 ""
0.249969 981.813 13 ""
0.0833333 296.459 4 ""
0.0833333 345.637 4 "add float4"
0.125 370.097 6 ""
0.125 485.227 6 "scale float4"
0.125 368.341 8 ""
0.125 486.522 8 "relu float4"
0.249985 729.381 10 ""
0.249985 969.781 10 "bias_relu float4"
0.625 1539.65 1 ""
0.625 1392.72 1 ""
0.625 2449.66 1 "softmax one_pass"
0.249027 966.652 3 "meanpool block_row"
0.228571 210.631 14 ""
0.228571 206.189 14 ""
0.228571 254.841 14 ""
0.228571 261.915 14 "spmv cusparse"
0.25 1025 15 "dot cublas"
0.499878 1376.76 2 "gemv cublas"
1365.33 51079.8 11 "gemm cublas"
EOD
plot \
  roof(x, 2717.58, 321.38) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 2718, copy 321.4 GB/s', \
  roof(x, 1409.58, 321.38) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 1410, copy 321.4 GB/s', \
  NaN w p pt 7 ps 1.4 lc rgb '#1f77b4' t 'cpu rungs: Intel(R) Xeon(R) Processor', \
  $be0 u 1:2:3 w p pt variable ps 1.4 lc rgb '#1f77b4' notitle, \
  $be0 u 1:2:4 w labels left offset 1,0 font ',8' tc rgb '#1f77b4' notitle, \
  roof(x, 50185.7, 3911.68) w l lw 2 dt 1 lc rgb '#d62728' t 'cuda fma roof 5.019e+04, copy 3912 GB/s', \
  roof(x, 26413.3, 3911.68) w l lw 2 dt 2 lc rgb '#d62728' t 'cuda add+min roof 2.641e+04, copy 3912 GB/s', \
  NaN w p pt 7 ps 1.4 lc rgb '#d62728' t 'cuda rungs: NVIDIA H200', \
  $be1 u 1:2:3 w p pt variable ps 1.4 lc rgb '#d62728' notitle, \
  $be1 u 1:2:4 w labels left offset 1,0 font ',8' tc rgb '#d62728' notitle, \
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
0 "cpu naive" 17.8917 17.3967 18.5223 4348.87 4348.87 4348.87 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 2.08853 2.03977 2.48138 134.926 128.134 141.348 1136.87 1136.87 1136.87 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.118031 0.114109 0.144614 2.30319 1.98899 2.62613 15.8201 14.2622 18.5838 114.105 111.538 121.404 642.11 593.17 691.05
3 "cpu openblas" 0.211264 0.175727 0.235566 3.65324 2.24524 3.92329 12.9752 12.5152 13.4264 69.5578 65.7557 74.6026 510.109 449.659 554.044

5 "cuda naive" 0.04216 0.041344 0.04752 2.27779 2.27574 2.28102 17.7183 17.7156 17.7216 141.169 141.143 141.277 1119.95 1119.95 1119.95
6 "cuda coalesced" 0.026544 0.025472 0.030624 0.433248 0.430176 0.437504 3.29106 3.28531 3.29344 43.1658 43.1551 43.1907 339.254 339.206 339.283
7 "cuda tiled" 0.012896 0.012224 0.013824 0.279648 0.279168 0.2904 2.10163 2.09926 2.10365 16.6169 16.6114 16.6308 139.253 139.204 139.381
8 "cuda blocktile_1d" 0.027936 0.027232 0.029664 0.131088 0.13008 0.132544 1.07843 1.07216 1.08739 9.056 9.05146 9.07043 72.7428 72.6335 72.9183
9 "cuda blocktile_2d" 0.058784 0.057824 0.061056 0.187184 0.18624 0.191904 0.836096 0.834368 0.849888 6.7661 6.74995 6.78099 53.2712 53.2535 53.2912
10 "cuda vec4" 0.054672 0.053568 0.056864 0.172432 0.171456 0.17392 0.534416 0.532544 0.538176 4.24432 4.20691 4.31584 33.6752 33.5436 33.7392
11 "cuda warptile" 0.043872 0.043168 0.044864 0.15528 0.154208 0.160992 0.480432 0.479104 0.481344 3.78829 3.78157 3.79952 30.7555 30.7137 30.828
12 "cuda warptile_db" 0.019792 0.018752 0.025696 0.072192 0.071232 0.074272 0.443136 0.442784 0.44448 3.45378 3.45104 3.45651 27.2794 27.2714 27.299
13 "cuda warptile_at" 0.01688 0.015808 0.019712 0.066192 0.064736 0.074208 0.391216 0.390016 0.393504 3.04824 3.04419 3.05805 23.9514 23.9099 24.0015
14 "cuda cublas" 0.016992 0.015808 0.019584 0.065504 0.064384 0.067552 0.347872 0.347232 0.355584 2.69549 2.69213 2.70125 21.5391 21.513 21.5739
15 "cuda cublas_tf32" 0.011856 0.010976 0.012928 0.024304 0.023648 0.02704 0.059776 0.058688 0.061728 0.348256 0.344512 0.350336 2.61648 2.6119 2.75507

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:15.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk matmul ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.42157 2.25621 2.80532 307.563 296.795 328.414 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.627731 0.591191 0.636243 35.1394 34.1568 36.1423 294.744 285.222 342.229 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.0322755 0.027608 0.038385 2.03777 2.01332 2.13291 6.80295 6.37219 7.60438 39.1011 35.5892 44.6248 223.722 214.554 244.321
3 "cpu openblas" 0.0470285 0.046947 0.057684 2.0854 1.90917 2.14728 5.76847 5.56804 6.71428 33.5322 31.5086 34.3904 240.866 224.986 254.198

5 "cuda tiled" 0.008096 0.007072 0.009152 0.07616 0.075168 0.077504 0.537568 0.53616 0.540576 4.1665 4.16314 4.16838 33.0527 33.0317 33.1094
6 "cuda cublas" 0.013408 0.012832 0.014944 0.025936 0.02496 0.027136 0.100144 0.098272 0.104128 0.694544 0.692832 0.69744 5.45762 5.45501 5.46867

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-batched_matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:6.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 25.0024 23.923 27.5892 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu v0" 2.01386 1.88732 2.56674 292.111 263.266 319.622 NaN NaN NaN NaN NaN NaN
2 "cpu v1" 1.86748 1.7656 2.16055 119.276 118.509 121.017 1002.15 1002.15 1002.15 NaN NaN NaN
3 "cpu v2" 0.776017 0.707969 1.0591 43.6156 42.031 44.7301 330.347 314.344 343.442 NaN NaN NaN
4 "cpu v3" 0.293131 0.224959 0.408564 13.3249 12.7286 16.25 96.59 88.9688 122.901 827.827 634.115 1021.54
5 "cpu v4" 0.156179 0.128754 0.176239 4.93885 4.75308 5.18639 33.9281 33.39 35.2536 231.142 160.173 246.852
6 "cpu v5" 0.221637 0.204812 0.233374 4.73465 4.61407 4.95787 33.2104 31.8703 36.4224 241.932 231.247 250.123

8 "cuda v0" 0.042688 0.041856 0.044256 2.28667 2.28579 2.2879 17.8082 17.7982 17.8257 141.384 141.36 141.473
9 "cuda v1" 0.024528 0.02288 0.02656 0.448832 0.44768 0.449536 3.47558 3.464 3.48374 28.5497 28.5156 28.5745
10 "cuda v2" 0.01336 0.012448 0.015616 0.284224 0.282272 0.28544 2.14522 2.14112 2.14973 17.1491 17.1396 17.155
11 "cuda v3" 0.024384 0.023936 0.025184 0.133824 0.133024 0.135328 0.977136 0.975072 0.978944 7.37344 7.35219 7.4033
12 "cuda v4" 0.063536 0.062592 0.067296 0.233296 0.232512 0.234784 0.819488 0.81888 0.820832 6.37018 6.35523 6.37872
13 "cuda v5" 0.056672 0.055296 0.05968 0.201776 0.201056 0.204704 0.73392 0.73312 0.739488 5.60973 5.60346 5.6184

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-minplus.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:13.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk minplus ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_minplus u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_minplus u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_minplus u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_minplus u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096'

# ---- ladder: transpose
$ladder_transpose << EOD
0 "cpu naive" 5.77941 5.72076 6.09903 128.976 120.23 145.535 1348.45 1348.45 1348.45
1 "cpu blocked" 0.0447135 0.042058 0.066933 0.919918 0.835298 1.02663 4.79948 4.61467 5.21674

3 "cuda naive" 0.021488 0.020128 0.023168 0.286752 0.282816 0.289536 1.08062 1.07763 1.08608
4 "cuda smem" 0.011104 0.009952 0.01216 0.085376 0.083936 0.09216 0.315968 0.314272 0.316768
5 "cuda smem_padded" 0.008608 0.00752 0.009824 0.04984 0.047008 0.051648 0.176016 0.173984 0.17872
6 "cuda tile64" 0.006656 0.00576 0.016 0.03912 0.037248 0.041024 0.140448 0.138784 0.142752

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-transpose.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:6.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk transpose ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.63968 0.625288 0.655861 11.6973 11.294 12.1962 50.1725 48.8375 57.4646
1 "cpu simd" 0.009624 0.008843 0.026946 0.22093 0.185661 0.24679 0.839457 0.730561 1.6905

3 "cuda smem_tree" 0.007584 0.006592 0.010144 0.021696 0.020992 0.023872 0.064912 0.063424 0.066624
4 "cuda warp_shuffle" 0.006992 0.00624 0.007968 0.022544 0.021312 0.023488 0.066448 0.064768 0.068416
5 "cuda grid_stride" 0.008352 0.007776 0.009408 0.023696 0.022944 0.025024 0.068416 0.066784 0.069984
6 "cuda lanes_inner" 0.0084 0.007616 0.009216 0.023696 0.022752 0.025056 0.068352 0.0672 0.069824

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-reduce.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:6.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk reduce ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.029027 0.027973 0.030146 0.456497 0.44436 0.477044 16.0615 15.7356 16.7131 71.2954 66.814 86.7187
1 "cpu simd" 0.008746 0.00771 0.010625 0.0185855 0.017919 0.019672 0.779434 0.730035 1.14018 6.74128 6.40031 7.18026

3 "cuda coalesced" 0.00568 0.005248 0.007264 0.009216 0.008416 0.011264 0.063312 0.061728 0.065056 0.226368 0.225728 0.227584
4 "cuda float4" 0.005344 0.004832 0.007584 0.007312 0.006592 0.009248 0.052768 0.051584 0.055296 0.19416 0.193376 0.196192

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-add.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk add ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.022087 0.022063 0.030384 0.368418 0.360514 0.388551 12.8582 12.4276 20.5329 51.5007 49.3476 53.8286
1 "cpu simd" 0.00802 0.005844 0.00924 0.0208925 0.01928 0.024785 0.530026 0.51548 0.600008 3.78004 3.63873 4.17722

3 "cuda coalesced" 0.0068 0.006016 0.01968 0.009632 0.008288 0.011296 0.05168 0.050112 0.05296 0.181328 0.179264 0.185504
4 "cuda float4" 0.005904 0.005024 0.006944 0.007136 0.006496 0.008192 0.039312 0.03792 0.04032 0.138304 0.13648 0.141376

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-scale.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk scale ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.355301 0.351174 0.365952 5.88681 5.82681 6.59233 87.9492 85.3093 89.4345 338.589 322.328 342.271
1 "cpu simd" 0.00649 0.005878 0.008434 0.015344 0.014804 0.03523 0.483426 0.431556 0.777223 3.43303 2.97241 4.157

3 "cuda coalesced" 0.006208 0.005248 0.009088 0.008992 0.00816 0.010848 0.051328 0.050464 0.052608 0.182192 0.180288 0.185632
4 "cuda float4" 0.005888 0.0048 0.007296 0.0084 0.007584 0.009504 0.039728 0.037568 0.043456 0.137936 0.136992 0.13952

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-relu.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk relu ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.92257 5.81734 6.55605 97.0411 89.5232 100.638 390.628 387.595 400.081
1 "cpu simd" 0.0216795 0.018882 0.026937 0.553556 0.532144 0.63554 3.73363 3.49917 4.31787

3 "cuda coalesced" 0.010608 0.010144 0.013216 0.05176 0.050656 0.054048 0.184016 0.18192 0.187936
4 "cuda float4" 0.007824 0.007104 0.009184 0.038688 0.037888 0.041472 0.1384 0.137184 0.139776

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-bias_relu.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.0216735 0.021287 0.02289 0.352903 0.343397 0.371259 11.4898 11.3281 12.6008 47.9623 47.3664 48.8122
1 "cpu simd" 2.02979 0.004211 8.03671 0.0162095 0.015462 0.062871 0.534654 0.522514 0.633316 3.68374 3.51323 4.16428

3 "cuda coalesced" 0.006384 0.005184 0.008256 0.008928 0.008128 0.01024 0.050288 0.04928 0.053088 0.18216 0.180992 0.183744
4 "cuda float4" 0.006064 0.005472 0.006624 0.006896 0.006368 0.007648 0.039472 0.037664 0.042528 0.138464 0.13664 0.141056

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-copy.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk copy ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 5.28481 5.23961 6.03948 85.1327 81.6922 89.0491 343.417 327.62 354.422
1 "cpu simd" 0.055109 0.054434 0.155045 1.01873 0.994154 1.07957 7.29104 6.95158 8.45293

3 "cuda block_row" 0.009392 0.008896 0.011424 0.054032 0.052896 0.055584 0.217936 0.21696 0.221184
4 "cuda online" 0.01232 0.011744 0.017568 0.065472 0.064416 0.067136 0.240928 0.239936 0.243392
5 "cuda one_pass" 0.012096 0.011712 0.014976 0.044832 0.043744 0.047168 0.136976 0.136064 0.1384

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-softmax.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:5.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk softmax ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 2.27773 2.05053 2.70488 11.6927 11.0141 13.6494 44.6765 42.5235 46.7677
1 "cpu omp" 0.209181 0.202063 0.220859 0.796501 0.772106 0.851634 4.9307 4.53664 5.25045

3 "cuda block_row" 0.077024 0.052352 0.092384 0.171296 0.167232 0.179552 0.652736 0.62976 0.680352

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-embedding.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:3.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk embedding ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 5.28887 5.19585 5.35938 22.0761 21.6943 22.5815 88.1698 84.5773 90.6537
1 "cpu simd" 0.0545455 0.050686 0.083324 0.419888 0.369961 0.445892 1.83999 1.67182 2.8382

3 "cuda block_row" 0.017376 0.016832 0.020928 0.038208 0.03664 0.04016 0.069424 0.066656 0.071584

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-meanpool.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:3.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk meanpool ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 4.44891 4.32861 4.73302 71.4897 70.2393 74.2899 317.729 313.913 325.844
1 "cpu omp" 0.848414 0.765293 0.895114 5.87036 5.35197 7.6922 34.9815 34.3415 36.2786
2 "cpu balanced" 0.760516 0.736186 0.784629 5.64149 5.09344 6.31117 36.0126 35.198 38.5728

4 "cuda scalar" 0.039728 0.03856 0.042048 0.150912 0.149568 0.15584 0.637216 0.635296 0.643392
5 "cuda vector" 0.042848 0.040672 0.044096 0.167456 0.165792 0.171648 0.650944 0.647616 0.653696
6 "cuda adaptive" 0.034848 0.034048 0.03584 0.133936 0.133472 0.137248 0.526672 0.522368 0.528384
7 "cuda cusparse" 0.050896 0.048512 0.073184 0.139952 0.138528 0.14128 0.512448 0.511264 0.513344

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-spmv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:7.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk spmv ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 0.686603 0.666847 0.756463 13.7827 13.3363 14.2932 54.5574 53.0485 57.1612
1 "cpu simd" 0.0120515 0.010197 0.012569 0.597275 0.581429 0.655054 4.64767 4.50882 4.85259
2 "cpu openblas" 0.273772 0.268107 0.28596 5.3701 5.18598 5.96654 31.4197 30.5576 32.7372

4 "cuda cublas" 0.012512 0.011584 0.01552 0.042208 0.041024 0.04288 0.130944 0.128224 0.13328

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-dot.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk dot ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 0.651186 0.647866 0.713923 14.8613 12.8423 20.4787 51.8351 50.9641 163.296
1 "cpu simd" 0.009684 0.009455 0.009978 0.306835 0.297178 0.316424 1.78721 1.10097 2.71316
2 "cpu openblas" 0.0100785 0.0094 0.013866 0.321804 0.299409 0.484744 1.31264 1.01492 1.36956

4 "cuda cublas" 0.009696 0.008736 0.010784 0.027792 0.027424 0.02944 0.097488 0.096864 0.099168

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-gemv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk gemv ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 16.0078 15.2969 19.9095 4490.81 4490.81 4490.81 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.138854 0.107415 0.347648 2.21476 2.16924 2.27085 14.9933 13.7274 15.5109 80.2706 71.851 90.4383 666.951 647.403 686.5
2 "cpu openblas" 0.135066 0.098776 0.167789 2.27714 2.18847 2.42114 12.8413 9.52037 13.5112 70.0426 66.2962 79.5832 525.219 522.878 529.804

4 "cuda cublas" 0.01744 0.017216 0.019648 0.069904 0.068384 0.083072 0.347584 0.345696 0.350624 2.69363 2.69142 2.704 21.5254 21.5099 21.5747

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-gemm.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk gemm ladder: time per rung, 2026-11-21T13:42:24Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
