# gpuk-bench charts, 2026-11-24T09:51:37Z: run 'gnuplot cpu-2core-epyc.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:2048]
set yrange [0.0686575:687.602]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-24T09:51:37Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.53063 5 ""
341.333 15.4147 5 ""
682.667 170.79 5 ""
682.667 207.28 5 "matmul openblas"
85.3333 1.01639 7 ""
170.667 17.3868 7 ""
341.333 180.624 7 ""
341.333 206.232 7 "batched_matmul openblas"
170.667 0.528529 9 ""
170.667 1.02504 9 ""
341.333 6.52424 9 ""
341.333 13.7517 9 ""
682.667 22.9647 9 ""
682.667 83.5473 9 ""
682.667 103.739 9 "minplus packed"
170.667 0.636374 9 ""
682.667 99.59 9 ""
0.249969 1.19932 13 ""
0.249969 8.48572 13 "reduce simd"
0.0833333 2.29915 4 ""
0.0833333 3.60075 4 "add simd"
0.125 3.33019 6 ""
0.125 5.93846 6 "scale simd"
0.125 0.205973 8 ""
0.125 6.07723 8 "relu simd"
0.249985 0.38816 10 ""
0.249985 12.0256 10 "bias_relu simd"
0.625 1.0615 1 ""
0.625 16.476 1 "softmax simd"
0.249027 0.992896 3 ""
0.249027 8.29279 3 "meanpool simd"
0.228571 0.487125 14 ""
0.228571 1.55731 14 "spmv omp"
0.228571 1.44674 14 ""
0.25 2.18061 15 ""
0.25 8.37313 15 "dot simd"
0.25 7.48109 15 ""
0.499878 2.29387 2 ""
0.499878 15.8923 2 "gemv simd"
0.499878 15.4834 2 ""
170.667 0.594737 11 ""
682.667 169.88 11 ""
682.667 203.949 11 "gemm openblas"
EOD
plot \
  roof(x, 229.201, 50.4505) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 229.2, copy 50.45 GB/s', \
  roof(x, 115.655, 50.4505) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 115.7, copy 50.45 GB/s', \
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
0 "cpu naive" 13.3244 13.126 13.7436 4047.04 4047.04 4047.04 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 1.8293 1.75791 1.91103 130.719 125.005 156.752 1114.51 1058.57 1300.89 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.226427 0.221594 0.272534 13.6861 13.498 14.4022 102.756 94.2514 109.108 804.723 736.425 837.196 NaN NaN NaN
3 "cpu openblas" 0.335775 0.325473 0.346223 11.0364 10.7849 12.4228 83.6758 81.678 84.9502 663.059 659.733 668.429 NaN NaN NaN

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
set title 'libgpuk matmul ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.11115 2.07776 2.18386 234.843 234.396 237.639 4225.69 4225.69 4225.69 NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.441157 0.43482 0.453035 28.4278 23.5493 28.9339 290.047 237.425 360.137 1976.2 1942.39 1997.97 NaN NaN NaN
2 "cpu simd" 0.111091 0.108663 0.118773 7.61119 7.55842 7.73683 29.8033 28.5613 30.3529 202.986 195.627 214.165 1521.83 1512.98 1536.9
3 "cpu openblas" 0.0760367 0.0736444 0.0812127 5.55776 3.01747 5.9243 22.7099 22.4969 23.9705 171.064 169.384 177.15 1332.86 1319.26 1352.76

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 13.9641 13.8739 14.0824 4063.13 4063.13 4063.13 NaN NaN NaN NaN NaN NaN 11.9354 11.4649 12.9295 3374.56 3374.56 3374.56 NaN NaN NaN NaN NaN NaN
1 "cpu omp" 14.1221 13.9578 16.474 2095.02 2076.76 2167.15 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 "cpu transposed" 14.1537 14.0265 15.1099 325.533 322.585 328.204 2633.24 2628.94 2637.53 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 "cpu ilp" 14.4554 14.3413 14.5611 155.236 153.027 160.304 1249.29 1224.95 1294.32 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 "cpu simd_k" 0.641829 0.633246 0.677058 28.7387 28.2987 30.3871 332.204 297.274 367.716 5984.79 5984.79 5984.79 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 "cpu regtile" 0.375721 0.371563 0.394245 21.4755 21.2623 22.758 193.515 187.941 243.729 1645.04 1612.57 1694.07 0.239524 0.232532 0.278199 16.4869 16.0781 18.7016 132.293 123.853 143.493 1380.05 1369.66 1404.25
6 "cpu packed" 0.381383 0.374055 0.410641 22.1856 22.0034 22.6894 166.944 165.288 170.172 1324.85 1314.42 1361.1 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-24T09:51:37Z'
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
0 "cpu naive" 5.92628 5.89104 6.04962 116.529 115.887 125.408 476.194 471.479 480.361
1 "cpu blocked" 0.128678 0.12639 0.134285 7.04087 6.64791 7.80438 18.366 16.1854 22.3997

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.83444 0.816271 0.863416 13.935 13.695 14.2126 55.9558 55.5132 56.4232
1 "cpu simd" 0.0234763 0.0229899 0.0243408 1.64793 1.52099 2.04641 7.90844 7.72076 9.29122

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.0225078 0.0200293 0.0312267 0.330081 0.324007 0.361613 10.2341 7.81806 13.537 29.1886 27.4336 38.3211
1 "cpu simd" 0.0064703 0.00465861 0.0112619 0.0808136 0.0669127 0.0900427 4.04551 3.93085 5.3917 18.6375 17.9155 19.1293

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
set title 'libgpuk add ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.0185529 0.0181612 0.020553 0.289456 0.284903 0.352343 4.92445 4.74707 5.52348 20.1517 19.1697 21.3534
1 "cpu simd" 0.00328535 0.00326008 0.00353119 0.0457585 0.0449788 0.048679 2.79658 2.70508 3.09564 11.3007 11.0432 12.9356

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
set title 'libgpuk scale ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.224282 0.218117 0.239362 4.95281 4.89036 5.14093 78.5372 78.2701 79.3286 325.815 320.749 332.576
1 "cpu simd" 0.00390619 0.00331537 0.00584381 0.0489674 0.0462022 0.0757803 2.52239 2.41767 2.68141 11.0427 10.8252 11.1708

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
set title 'libgpuk relu ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.31143 5.28554 5.38075 86.7602 86.2931 90.1329 345.779 345.457 346.674
1 "cpu simd" 0.0933217 0.0918689 0.0984565 2.61415 2.51239 4.78479 11.161 10.7362 11.3024

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.036233 0.0357499 0.0370792 0.573118 0.568627 0.581696 9.227 9.19832 9.25943 37.1496 36.9374 37.8689
1 "cpu simd" 0.00332798 0.00331712 0.00356814 0.047063 0.046333 0.124605 2.6949 2.44913 2.8834 11.5363 10.9235 11.7122

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
set title 'libgpuk copy ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 4.88891 4.85284 5.1933 78.9855 78.7345 79.4917 316.105 314.805 329.782
1 "cpu simd" 0.210243 0.202454 0.236713 5.06772 4.87596 6.0166 20.3656 19.5568 25.2016

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 3.82358 3.7036 4.53293 17.1297 15.6878 20.4062 71.4609 62.5916 89.3157
1 "cpu omp" 0.962037 0.685607 1.08773 4.80073 4.06981 5.98191 18.8914 16.6901 27.4194

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 4.46182 3.9367 5.32415 17.709 17.0483 18.173 67.589 67.0048 89.7158
1 "cpu simd" 0.187218 0.175941 0.289262 1.43508 1.36313 1.58367 8.09243 7.88379 8.64093

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 5.15881 4.95474 5.68647 20.5575 20.0647 21.8995 275.53 246.715 296.485 5.02351 4.93735 5.17263 23.5879 23.2844 25.1745 267.194 229.161 301.692
1 "cpu omp" 2.50802 2.35408 2.6487 12.0011 10.5124 12.5703 86.1856 76.127 100.122 3.24497 3.2004 3.3392 17.2157 17.1167 17.339 125.133 117.04 144.576
2 "cpu balanced" 2.48053 2.36591 2.62126 11.9004 10.3966 12.3699 92.7727 78.4064 148.772 3.39675 3.22667 3.71351 17.8593 17.5854 18.8975 130.168 124.407 142.952

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
set title 'libgpuk spmv ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 1.10771 0.889929 1.24553 14.5547 13.9724 16.7907 61.5505 55.6714 71.2376
1 "cpu simd" 0.0518887 0.0507688 0.0540485 3.9762 3.88734 4.36674 16.0296 15.6447 16.6474
2 "cpu openblas" 0.104755 0.088545 0.109506 4.78172 4.49657 5.63775 17.9409 17.7477 19.1981

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
set title 'libgpuk dot ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 1.1163 1.06579 1.27506 14.1908 14.1404 14.2914 58.5116 58.2238 59.277
1 "cpu simd" 0.0300377 0.0285519 0.0430711 1.52071 1.4541 1.58549 8.44544 8.31115 8.70958
2 "cpu openblas" 0.0354791 0.0349261 0.938632 1.51953 1.44885 2.47647 8.6685 8.41657 9.55042

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 14.0998 13.8662 17.2501 3610.81 3610.81 3610.81 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.363115 0.361581 0.38757 12.6638 12.0455 13.1856 108.272 104.296 112.84 809.035 777.434 841.547 NaN NaN NaN
2 "cpu openblas" 0.31725 0.313905 0.35073 11.0619 10.7238 11.503 95.9288 88.3978 119.84 673.89 663.639 680.031 NaN NaN NaN

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-24T09:51:37Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
