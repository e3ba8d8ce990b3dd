# gpuk-bench charts, 2026-11-24T13:39:50Z: run 'gnuplot cpu-2core-epyc.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:2048]
set yrange [0.071219:704.504]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-24T13:39:50Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.59386 5 ""
341.333 18.0843 5 ""
682.667 190.695 5 ""
682.667 210.694 5 "matmul openblas"
85.3333 1.02073 7 ""
170.667 18.0737 7 ""
341.333 166.438 7 ""
341.333 199.724 7 "batched_matmul openblas"
170.667 0.315857 9 ""
170.667 0.630218 9 ""
341.333 6.39951 9 ""
341.333 13.2222 9 ""
682.667 21.4721 9 ""
682.667 86.7569 9 ""
682.667 105.869 9 "minplus packed"
170.667 0.678523 9 ""
682.667 90.0064 9 ""
0.249969 1.20754 13 ""
0.249969 7.97585 13 "reduce simd"
0.0833333 2.42072 4 ""
0.0833333 3.74904 4 "add simd"
0.125 3.26953 6 ""
0.125 6.0125 6 "scale simd"
0.125 0.213657 8 ""
0.125 5.70609 8 "relu simd"
0.249985 0.387961 10 ""
0.249985 11.2631 10 "bias_relu simd"
0.625 1.06623 1 ""
0.625 16.552 1 "softmax simd"
0.249027 0.995942 3 ""
0.249027 8.53726 3 "meanpool simd"
0.228571 0.465806 14 ""
0.228571 1.19678 14 ""
0.228571 1.20039 14 "spmv balanced"
0.25 2.4162 15 ""
0.25 7.08712 15 "dot simd"
0.25 7.05061 15 ""
0.499878 2.29929 2 ""
0.499878 14.2663 2 ""
0.499878 14.7768 2 "gemv openblas"
170.667 0.475648 11 ""
682.667 184.794 11 ""
682.667 208.329 11 "gemm openblas"
EOD
plot \
  roof(x, 234.835, 75.7965) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 234.8, copy 75.8 GB/s', \
  roof(x, 117.322, 75.7965) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 117.3, copy 75.8 GB/s', \
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
0 "cpu naive" 13.2265 13.1512 13.296 3616.14 3616.14 3616.14 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 1.7807 1.7553 1.83015 109.002 107.614 123.651 949.987 900.351 997.363 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.196797 0.194251 0.266014 11.7314 11.6694 11.8694 94.0501 93.2049 95.8076 720.726 718.726 743.188 NaN NaN NaN
3 "cpu openblas" 0.176006 0.174193 0.18094 10.3482 10.3164 11.5113 81.8814 81.4314 82.452 652.315 649.039 658.401 NaN NaN NaN

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
set title 'libgpuk matmul ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.2589 2.22719 2.30952 244.961 243.413 250.841 4207.73 4207.73 4207.73 NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.440675 0.43504 0.455157 23.4615 23.4256 23.5144 209.149 205.228 307.895 1901.09 1896.38 1967.49 NaN NaN NaN
2 "cpu simd" 0.0995677 0.0978189 0.103326 5.11786 4.56015 5.30936 28.9304 28.1337 32.4368 201.848 199.257 203.76 1651.54 1601.21 1693.45
3 "cpu openblas" 0.0744117 0.0739069 0.0757104 3.0518 3.0135 3.10651 23.1905 22.4722 24.2301 173.204 171.03 176.161 1376.29 1366.32 1398.11

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 14.1149 14.0066 14.8414 6798.91 6798.91 6798.91 NaN NaN NaN NaN NaN NaN 13.6899 12.8752 14.777 3164.94 3122.67 3207.21 NaN NaN NaN NaN NaN NaN
1 "cpu omp" 7.04279 7.01306 7.11341 3407.53 3407.53 3407.53 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 "cpu transposed" 4.64057 4.59993 4.75667 330.872 324.741 379.795 2684.56 2663.38 2705.74 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 "cpu ilp" 2.4733 2.446 2.55598 157.218 153.736 185.344 1299.32 1252.49 1353.95 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 "cpu simd_k" 0.647552 0.638697 0.654204 28.6569 28.22 32.872 296.558 284.648 320.363 6400.81 6400.81 6400.81 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 "cpu regtile" 0.379705 0.372238 0.401544 21.4341 20.985 22.4093 193.554 181.429 210.584 1584.18 1572.33 1596.24 0.202063 0.193955 0.224064 16.503 15.7495 18.5365 149.811 135.828 200.165 1526.99 1462.03 1535.96
6 "cpu packed" 0.379575 0.374704 0.388246 21.7788 21.6346 22.1662 168.254 166.66 171.06 1298.19 1295.6 1305.86 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-24T13:39:50Z'
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
0 "cpu naive" 6.24766 6.16944 6.29122 116.238 107.093 118.756 483.523 462.822 688.166
1 "cpu blocked" 0.129334 0.125691 0.134486 4.73833 4.26192 5.45937 20.2125 17.5621 22.7997

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.825419 0.816376 0.858553 13.7526 13.706 14.1073 55.5747 55.1023 74.4098
1 "cpu simd" 0.0236052 0.0229898 0.0241505 1.75775 1.3883 2.07607 8.41401 7.88303 9.47589

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.0204775 0.0202161 0.0210164 0.329894 0.325072 0.340461 6.7348 6.59152 6.95028 27.7227 27.5727 29.5327
1 "cpu simd" 0.00682522 0.00621471 0.00715131 0.0877384 0.0675325 0.0920665 4.13992 4.04585 4.56428 17.9003 17.823 18.2278

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
set title 'libgpuk add ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.0183279 0.0181092 0.0192768 0.28938 0.284926 0.302011 4.76307 4.73444 4.82984 20.5256 20.0794 23.5541
1 "cpu simd" 0.0040122 0.00400183 0.00447533 0.046344 0.0452697 0.0495067 2.74931 2.70191 3.12438 11.1616 11.091 12.3524

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
set title 'libgpuk scale ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.216692 0.210411 0.276569 4.89123 4.86548 4.93865 78.4608 78.2913 78.8083 314.096 313.275 319.39
1 "cpu simd" 0.0040793 0.00398386 0.00439612 0.0483072 0.0467454 0.0551532 2.8362 2.7135 3.00083 11.7609 11.3972 12.6314

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
set title 'libgpuk relu ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.33347 5.28502 5.4044 86.7267 86.4966 88.3986 345.956 345.493 346.814
1 "cpu simd" 0.0513282 0.0490042 0.0588898 2.53334 2.42891 2.63096 11.9166 11.6387 13.4843

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.0358748 0.0356554 0.0370464 0.581078 0.56879 0.593337 9.29584 9.22725 9.54507 37.0204 36.8825 39.3583
1 "cpu simd" 0.00415884 0.00394085 0.00432361 0.0479334 0.0463213 0.0877299 2.70944 2.55819 2.83004 11.5153 11.3453 12.4858

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
set title 'libgpuk copy ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 4.88458 4.87314 4.96655 79.0544 78.8556 79.158 314.702 314.513 316.367
1 "cpu simd" 0.241099 0.212481 0.249098 4.99228 4.93513 5.09882 20.2721 19.6386 27.3595

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 4.03389 3.80313 4.61536 17.3414 16.6463 17.5529 70.2458 68.3458 70.9404
1 "cpu omp" 0.797889 0.724294 0.891106 4.65638 4.47117 4.97535 18.2237 17.6851 22.0888

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 3.78261 3.7511 3.8132 16.879 16.835 16.9412 67.3823 67.1903 67.8172
1 "cpu simd" 0.164306 0.154097 0.294803 1.60542 1.45789 1.88576 7.8607 7.62843 9.36414

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 4.02399 3.95275 4.28088 20.809 20.3632 22.3083 288.141 259.649 311.815 5.04942 5.00889 5.16792 24.443 24.1907 24.7534 334.333 310.015 359.367
1 "cpu omp" 2.25094 2.17117 2.95808 10.8245 10.7229 11.7515 112.149 102.718 129.154 3.24552 3.14664 3.31489 17.5008 17.328 18.9746 133.49 121.164 165.953
2 "cpu balanced" 2.17194 2.06932 2.88301 10.6655 10.5215 12.013 111.812 99.1661 125.091 3.37081 3.30315 3.46058 17.8592 17.7389 18.3768 154.162 141.863 163.262

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
set title 'libgpuk spmv ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 0.87843 0.852675 0.938332 17.5937 14.0213 18.1056 55.549 55.387 55.7267
1 "cpu simd" 0.0511296 0.0502817 0.0558075 4.63068 3.95582 6.11675 18.9383 17.7759 20.6761
2 "cpu openblas" 0.0879581 0.0849839 0.0930838 5.50022 5.15231 8.46946 19.0363 18.5888 20.1038

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
set title 'libgpuk dot ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 0.852043 0.835313 0.899519 14.3406 14.2572 14.3814 58.3735 57.9689 58.6492
1 "cpu simd" 0.0284272 0.027335 0.03181 1.88828 1.73708 1.95669 9.40803 8.67593 9.75337
2 "cpu openblas" 0.0332497 0.0315885 0.0339985 1.71128 1.64669 1.81929 9.083 8.94433 9.3143

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 14.0584 13.9675 14.4661 4514.86 4514.86 4514.86 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.226859 0.215987 0.239569 13.8865 13.6087 17.6915 93.2796 92.8804 94.9512 743.743 724.825 782.082 NaN NaN NaN
2 "cpu openblas" 0.196822 0.184947 0.203274 11.1094 10.9638 11.2112 82.5933 81.5054 83.6953 659.721 649.267 679.296 NaN NaN NaN

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-24T13:39:50Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
