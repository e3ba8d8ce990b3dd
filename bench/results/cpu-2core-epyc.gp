# gpuk-bench charts, 2026-11-24T04:45:43Z: run 'gnuplot cpu-2core-epyc.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:2048]
set yrange [0.0654963:689.506]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-24T04:45:43Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.522366 5 ""
341.333 13.2928 5 ""
682.667 173.95 5 ""
682.667 201.803 5 "matmul openblas"
85.3333 1.06792 7 ""
170.667 12.6246 7 ""
341.333 156.601 7 ""
341.333 196.32 7 "batched_matmul openblas"
170.667 0.543072 9 ""
170.667 1.06182 9 ""
341.333 5.89438 9 ""
341.333 10.9323 9 ""
682.667 15.2689 9 ""
682.667 70.4782 9 ""
682.667 96.1702 9 "minplus packed"
170.667 0.655949 9 ""
682.667 78.5874 9 ""
0.249969 1.19918 13 ""
0.249969 7.8942 13 "reduce simd"
0.0833333 2.10024 4 ""
0.0833333 3.01136 4 "add simd"
0.125 3.14045 6 ""
0.125 5.27229 6 "scale simd"
0.125 0.205477 8 ""
0.125 5.47909 8 "relu simd"
0.249985 0.375678 10 ""
0.249985 8.66625 10 "bias_relu simd"
0.625 0.956243 1 ""
0.625 13.0476 1 "softmax simd"
0.249027 0.934713 3 ""
0.249027 7.93752 3 "meanpool simd"
0.228571 0.287244 14 ""
0.228571 0.51276 14 ""
0.228571 0.582125 14 "spmv balanced"
0.25 2.12895 15 ""
0.25 10.7653 15 "dot simd"
0.25 5.554 15 ""
0.499878 2.16686 2 ""
0.499878 10.1063 2 ""
0.499878 12.9311 2 "gemv openblas"
170.667 0.565871 11 ""
682.667 177.095 11 ""
682.667 204.951 11 "gemm openblas"
EOD
plot \
  roof(x, 229.835, 77.2159) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 229.8, copy 77.22 GB/s', \
  roof(x, 116.606, 77.2159) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 116.6, copy 77.22 GB/s', \
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
0 "cpu naive" 14.2964 13.6887 19.714 4111.07 4111.07 4111.07 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 1.78732 1.44798 2.68112 176.869 134.18 188.308 1292.42 1019.21 1473.17 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.278774 0.195751 0.555434 14.4711 14.1259 14.8721 109.286 107.481 114.558 790.104 754.592 819.519 NaN NaN NaN
3 "cpu openblas" 0.196531 0.174679 0.254457 12.5619 12.3552 12.9042 93.4956 86.0318 103.125 681.055 665.476 777.891 NaN NaN NaN

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
set title 'libgpuk matmul ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.44804 2.33598 2.58672 378.216 356.396 439.332 4021.81 4021.81 4021.81 NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.514823 0.483227 0.560811 145.127 142.869 146.365 269.225 245.827 342.264 2721.65 2507.26 2773.71 NaN NaN NaN
2 "cpu simd" 0.138296 0.130593 0.152556 6.20567 5.72096 8.9925 32.7432 31.5599 35.3677 247.062 219.263 252.354 1755.28 1749.89 1785.36
3 "cpu openblas" 0.0735845 0.073479 0.073939 3.75625 3.57864 3.95116 24.3589 23.633 25.4356 204.65 179.581 223.265 1400.15 1388.81 1426.1

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 15.7421 15.0278 15.9175 3954.33 3954.33 3954.33 NaN NaN NaN NaN NaN NaN 18.7518 14.2385 20.8283 3273.86 3226.03 3321.69 NaN NaN NaN NaN NaN NaN
1 "cpu omp" 14.2527 14.1779 14.3582 2022.46 1877.65 2027.38 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 "cpu transposed" 14.4602 14.3767 18.8029 342.31 340.401 377.405 2914.62 2859.16 2970.08 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 "cpu ilp" 14.7915 14.6512 18.3977 192.571 186.751 196.804 1571.48 1524.24 1597.79 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 "cpu simd_k" 0.879574 0.761739 0.941987 32.8359 32.0287 35.7162 343.651 298.01 517.419 9001.26 9001.26 9001.26 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 "cpu regtile" 0.46861 0.460423 0.520011 25.5984 24.7166 31.4476 222.389 198.025 234.079 1950.09 1923.16 2003.78 0.230351 0.224873 0.23616 23.4677 22.6964 23.7465 236.557 205.065 254.506 1748.87 1699.39 1778.98
6 "cpu packed" 0.469726 0.45879 0.531869 25.1206 24.2163 33.8634 185.322 179.664 195.741 1429.12 1389.04 1638.9 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-24T04:45:43Z'
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
0 "cpu naive" 4.86587 4.72495 5.61239 102.083 98.9898 108.496 430.26 421.529 541.092
1 "cpu blocked" 0.14827 0.143113 0.201509 7.64681 7.13873 8.16404 45.6347 29.5377 62.923

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.848513 0.839174 0.962076 13.8542 13.7223 14.214 55.9623 55.5087 59.4399
1 "cpu simd" 0.0266145 0.025438 0.0272 2.37279 2.26063 2.48593 8.50103 8.31459 9.02939

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.019404 0.019358 0.019559 0.329504 0.324541 0.383669 10.404 7.70412 11.2017 31.953 31.362 35.2707
1 "cpu simd" 0.0086075 0.008453 0.008683 0.14478 0.144154 0.1483 4.92046 4.76364 5.02645 22.2852 20.5514 31.6586

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
set title 'libgpuk add ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.0180865 0.018057 0.018277 0.285694 0.284833 0.404851 5.92747 4.84868 8.14664 21.3692 20.4779 32.4346
1 "cpu simd" 0.005443 0.005388 0.005548 0.0596485 0.051076 0.116913 2.86035 2.80359 2.88922 12.7286 11.6697 13.7618

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
set title 'libgpuk scale ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.269605 0.261748 0.306294 5.33657 5.07122 5.84388 79.924 78.7362 86.4545 326.6 320.726 336.564
1 "cpu simd" 0.0061645 0.005879 0.011587 0.083098 0.082583 0.08751 2.85178 2.74645 3.08347 12.2482 11.8326 13.6155

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
set title 'libgpuk relu ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.83677 5.34437 7.08033 90.4097 87.7034 95.1901 357.268 354.541 399.496
1 "cpu simd" 0.0885615 0.086458 0.211133 3.56753 3.26336 5.56138 15.4874 14.1978 18.2558

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.035668 0.035663 0.035813 0.568868 0.568313 0.690845 9.37752 9.28238 12.0957 53.6283 38.179 70.5144
1 "cpu simd" 0.006184 0.006129 0.00629 0.0913905 0.090364 0.091796 3.08026 2.6368 3.58239 16.7364 12.4646 21.434

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
set title 'libgpuk copy ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 5.82963 5.5373 6.166 89.6957 82.6453 94.0161 350.899 322.888 412.314
1 "cpu simd" 0.268578 0.24932 0.352974 5.82957 5.52777 8.67996 25.717 24.2465 28.4975

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 5.92887 5.41014 7.02224 23.3371 21.3844 23.6484 113.983 97.5528 116.127
1 "cpu omp" 1.29578 1.14363 1.50319 8.48092 8.04468 9.62431 26.1193 22.6525 40.5493

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 4.77449 4.18052 5.61401 17.5744 17.2683 19.9565 71.7962 68.2553 79.2217
1 "cpu simd" 0.248398 0.229941 0.392202 2.0547 1.8823 2.47065 8.45464 8.21527 8.99547

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 4.2935 4.18843 4.96474 22.2216 21.4338 25.2703 467.26 424.277 512.438 6.02965 5.63473 6.44516 32.1786 28.8132 44.9916 437.631 403.403 482.611
1 "cpu omp" 2.67957 2.56778 3.09628 15.63 13.7876 17.9622 261.756 212.143 279.577 4.14953 4.02949 4.44329 23.0587 21.401 27.2736 252.47 242.974 289.036
2 "cpu balanced" 3.09749 2.955 4.30316 16.695 14.0381 20.4198 230.565 208.041 242.686 4.34332 3.92846 4.99807 23.0797 20.4436 35.9584 285.794 246.164 299.922

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
set title 'libgpuk spmv ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 0.985191 0.852555 1.22082 14.0866 13.9288 17.0921 63.0442 56.1914 71.4613
1 "cpu simd" 0.044531 0.044156 0.093439 4.22479 4.11434 4.28014 12.4676 10.6665 13.9769
2 "cpu openblas" 0.0964135 0.084325 0.150563 5.06578 4.74255 5.49837 24.166 22.9039 27.6353

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
set title 'libgpuk dot ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 0.888633 0.835659 1.08102 14.6811 14.4287 15.7064 61.9411 60.6169 71.8689
1 "cpu simd" 0.050084 0.030235 0.157164 2.22874 2.05036 2.76567 13.2806 12.4947 14.4203
2 "cpu openblas" 0.051201 0.037496 0.079699 2.01411 1.88556 3.18101 10.3795 10.0595 11.7442

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 16.123 15.5849 20.2299 3795 3795 3795 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.224483 0.223251 0.269369 22.5352 22.2323 23.1166 171.341 169.543 182.448 776.074 749.665 844.108 NaN NaN NaN
2 "cpu openblas" 0.193066 0.190863 0.223692 20.5078 20.3874 21.1209 86.0886 84.3634 156.816 670.593 663.612 683.396 NaN NaN NaN

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-24T04:45:43Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
