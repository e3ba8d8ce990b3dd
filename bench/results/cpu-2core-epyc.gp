# gpuk-bench charts, 2026-11-24T05:36:29Z: run 'gnuplot cpu-2core-epyc.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:2048]
set yrange [0.0695031:702.954]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-24T05:36:29Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.586619 5 ""
341.333 17.7529 5 ""
682.667 180.066 5 ""
682.667 206.454 5 "matmul openblas"
85.3333 1.04887 7 ""
170.667 18.0522 7 ""
341.333 177.828 7 ""
341.333 197.228 7 "batched_matmul openblas"
170.667 0.543983 9 ""
170.667 1.09899 9 ""
341.333 6.31082 9 ""
341.333 12.9875 9 ""
682.667 20.9267 9 ""
682.667 79.2617 9 ""
682.667 103.042 9 "minplus packed"
170.667 0.727934 9 ""
682.667 100.612 9 ""
0.249969 1.19469 13 ""
0.249969 7.9003 13 "reduce simd"
0.0833333 2.52823 4 ""
0.0833333 3.72274 4 "add simd"
0.125 3.48156 6 ""
0.125 5.61275 6 "scale simd"
0.125 0.208509 8 ""
0.125 5.50444 8 "relu simd"
0.249985 0.380797 10 ""
0.249985 12.1358 10 "bias_relu simd"
0.625 1.06384 1 ""
0.625 17.3044 1 "softmax simd"
0.249027 1.02358 3 ""
0.249027 7.27377 3 "meanpool simd"
0.228571 0.569651 14 ""
0.228571 1.46231 14 "spmv omp"
0.228571 1.4356 14 ""
0.25 2.39732 15 ""
0.25 8.32372 15 "dot simd"
0.25 7.19774 15 ""
0.499878 2.29109 2 ""
0.499878 13.6934 2 ""
0.499878 14.461 2 "gemv openblas"
170.667 0.629785 11 ""
682.667 187.548 11 ""
682.667 206.564 11 "gemm openblas"
EOD
plot \
  roof(x, 234.318, 49.6004) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 234.3, copy 49.6 GB/s', \
  roof(x, 117.168, 49.6004) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 117.2, copy 49.6 GB/s', \
  NaN w p pt 7 ps 1.4 lc rgb '#1f77b4' t 'cpu rungs: AMD EPYC', \
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
0 "cpu naive" 13.072 12.9764 13.1821 3660.78 3660.78 3660.78 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 1.49784 1.46697 1.52648 113.354 111.952 116.111 967.723 907.768 989.753 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.20088 0.195493 0.26902 12.6711 12.1758 13.5715 96.1308 94.0475 97.4065 763.268 747.11 802.242 NaN NaN NaN
3 "cpu openblas" 0.175255 0.173269 0.990033 10.9454 10.745 11.8272 84.69 82.5963 88.6249 665.713 659.364 838.717 NaN NaN NaN

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:3.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk matmul ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.08888 2.06308 2.20284 230.009 227.813 240.993 4094.86 4094.86 4094.86 NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.439353 0.434104 0.450766 24.0391 23.4682 27.796 231.769 216.322 246.012 1903.35 1885.07 1909.7 NaN NaN NaN
2 "cpu simd" 0.113675 0.111277 0.127474 4.55221 3.96044 4.89821 29.1248 27.987 46.2608 213.183 194.315 221.413 1545.75 1526.35 1561.49
3 "cpu openblas" 0.074152 0.0735042 0.0753488 3.23082 3.15524 3.75476 22.6597 22.5073 24.1163 196.511 194.411 200.031 1393.7 1374.67 1439.44

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-batched_matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:3.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 14.0213 13.9256 14.3421 3947.7 3947.7 3947.7 NaN NaN NaN NaN NaN NaN 14.6926 14.3991 14.9189 2950.11 2949.24 2950.98 NaN NaN NaN NaN NaN NaN
1 "cpu omp" 14.3216 13.886 15.9434 1954.05 1951.94 1965.53 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 "cpu transposed" 14.2278 14.0197 16.6145 323.542 322.19 326.923 2722.29 2707.14 2737.43 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 "cpu ilp" 14.5472 14.4013 15.2495 153.606 152.571 157.113 1322.8 1249.64 1673.64 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 "cpu simd_k" 0.713869 0.697028 0.871332 29.518 28.2682 38.5204 282.454 269.794 297.083 6567.64 6567.64 6567.64 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 "cpu regtile" 0.434305 0.420364 0.518256 21.5 20.9381 22.291 204.438 190.329 221.195 1733.99 1671.51 1767.54 0.202666 0.196798 0.289823 16.8697 15.9958 17.6037 140.051 127.202 166.507 1366.03 1357.99 1416.83
6 "cpu packed" 0.439302 0.435931 0.449694 21.708 21.4321 22.5002 179.289 168.885 186.656 1333.81 1310.38 1381.05 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-minplus.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:6.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk minplus ladder: time per rung, 2026-11-24T05:36:29Z'
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
0 "cpu naive" 6.17147 6.07507 6.27151 116.427 112.398 116.955 477.42 470.308 480.679
1 "cpu blocked" 0.134472 0.131403 0.143484 5.72777 3.76554 8.46966 21.5558 15.9937 31.4768

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-transpose.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk transpose ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.829313 0.816005 0.896925 13.8811 13.7324 14.5827 56.1727 55.3785 58.9305
1 "cpu simd" 0.0235924 0.0230905 0.0247654 1.52441 1.35537 1.99891 8.49447 8.03827 9.12582

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-reduce.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk reduce ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.0201221 0.0194908 0.0261308 0.340263 0.323417 0.392169 6.71461 6.57187 6.84402 26.5439 26.2022 28.3272
1 "cpu simd" 0.00471492 0.00453537 0.00595608 0.0705536 0.0688373 0.0775803 4.71335 4.52452 6.38856 18.0268 17.7268 18.6041

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-add.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk add ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.018477 0.0180894 0.0215753 0.301128 0.284968 0.349263 4.74962 4.70474 4.84651 19.2755 19.0826 20.8994
1 "cpu simd" 0.00360767 0.00356233 0.00921421 0.0463363 0.0452412 0.0486891 2.50891 2.45186 2.72428 11.9565 10.8834 13.032

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-scale.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk scale ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.220087 0.216729 0.237256 4.90373 4.88711 4.93507 78.6143 78.3134 79.0336 321.851 314.844 343.039
1 "cpu simd" 0.00336908 0.00335232 0.00399152 0.0472751 0.045302 0.0488998 2.7417 2.68279 2.84213 12.1918 11.3666 12.8032

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-relu.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk relu ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.38036 5.30431 5.99639 86.4563 86.2153 89.4969 352.466 347.985 374.055
1 "cpu simd" 0.0497523 0.0485873 0.0513461 2.65796 2.58347 3.18849 11.0596 10.9313 11.419

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-bias_relu.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.0360095 0.0356272 0.0369147 0.577984 0.568717 0.596956 9.26699 9.22289 9.38686 37.0877 36.8821 37.7082
1 "cpu simd" 0.00390417 0.00357875 0.00406463 0.0476086 0.0462963 0.0497483 2.55069 2.46514 2.79698 10.9917 10.7117 12.2895

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-copy.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk copy ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 4.88163 4.85301 4.93832 79.1833 78.9733 79.6852 315.41 313.795 319.561
1 "cpu simd" 0.250313 0.209056 0.25909 5.77463 5.11975 6.63787 19.3906 19.0147 22.7728

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-softmax.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk softmax ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 4.13568 3.87322 4.50188 18.5174 18.0387 18.8625 72.8157 70.1185 88.5434
1 "cpu omp" 1.21004 1.12853 1.5144 6.25289 4.45303 6.36795 18.3994 16.9345 22.2177

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-embedding.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk embedding ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 3.64407 3.60171 10.9336 16.0535 15.952 16.1746 65.5626 65.1527 69.3801
1 "cpu simd" 0.128639 0.127371 0.169101 1.6615 1.6258 1.72554 9.22615 8.1024 11.763

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-meanpool.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk meanpool ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 4.06965 3.98861 4.35728 20.6412 20.3164 22.6345 235.614 216.165 270.825 5.03682 4.94775 5.32489 24.7077 23.8797 26.0105 306.271 287.126 330.908
1 "cpu omp" 2.11653 2.02155 2.17186 10.816 10.54 12.4774 91.7846 84.788 125.672 3.36587 3.27456 3.58663 17.6198 17.096 20.4647 125.311 118.929 161.033
2 "cpu balanced" 2.11005 2.06604 2.31901 10.8373 10.5807 11.3945 93.4924 86.7316 107.969 3.29128 3.23529 3.50548 18.2126 17.5049 19.6601 134.889 116.012 155.679

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-spmv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:2.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk spmv ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 0.865869 0.852309 0.903795 14.1783 13.8665 14.5395 55.9866 55.4508 56.2416
1 "cpu simd" 0.0442577 0.0435059 0.0461139 4.01328 3.84598 4.92437 16.1247 9.19353 16.2491
2 "cpu openblas" 0.0856808 0.0843268 0.0870535 4.67045 4.38227 4.88831 18.6472 18.1658 19.2425

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-dot.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:2.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk dot ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 0.845472 0.835274 0.87633 14.2816 14.259 14.5859 58.5825 57.9898 59.6553
1 "cpu simd" 0.0251301 0.0242011 0.0269247 1.92252 1.64856 2.41383 9.80166 8.68256 10.3521
2 "cpu openblas" 0.0282152 0.0280571 0.273239 1.84892 1.66152 2.48986 9.28135 8.85864 9.47277

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-gemv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:2.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk gemv ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 14.9021 14.8157 15.8896 3409.87 3409.87 3409.87 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.198457 0.193872 0.203598 13.0229 12.0942 13.8742 98.0476 95.0061 103.724 732.82 719.75 766.811 NaN NaN NaN
2 "cpu openblas" 0.18097 0.177473 1.29537 10.623 10.4363 10.7864 85.831 82.5821 90.7628 665.359 652.546 680.685 NaN NaN NaN

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-ladder-gemm.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:2.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk gemm ladder: time per rung, 2026-11-24T05:36:29Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
