# gpuk-bench charts, 2026-11-21T13:58:46Z: run 'gnuplot cpu-2core-epyc.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:4096]
set yrange [0.0686694:1508.51]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-21T13:58:46Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.454496 5 ""
682.667 17.9636 5 ""
1365.33 357.265 5 "matmul simd"
1365.33 221.644 5 ""
85.3333 1.59603 7 ""
170.667 23.6633 7 ""
341.333 350.766 7 "batched_matmul simd"
341.333 209.018 7 ""
170.667 0.565725 9 ""
170.667 1.10534 9 ""
341.333 6.18472 9 ""
341.333 12.7923 9 ""
682.667 32.9092 9 ""
682.667 113.774 9 ""
682.667 199.292 9 "minplus v5"
0.249969 1.79212 13 ""
0.249969 11.6331 13 "reduce simd"
0.0833333 2.96256 4 ""
0.0833333 4.42956 4 "add simd"
0.125 3.71608 6 ""
0.125 6.78842 6 "scale simd"
0.125 0.219178 8 ""
0.125 6.4698 8 "relu simd"
0.249985 0.370367 10 ""
0.249985 12.4716 10 "bias_relu simd"
0.625 1.13509 1 ""
0.625 21.6573 1 "softmax simd"
0.249027 1.09449 3 ""
0.249027 11.5342 3 "meanpool simd"
0.228571 1.19081 14 ""
0.228571 2.75038 14 ""
0.228571 2.87999 14 "spmv balanced"
0.25 3.82933 15 ""
0.25 10.6093 15 "dot simd"
0.25 10.1749 15 ""
0.499878 3.08215 2 ""
0.499878 20.9303 2 "gemv simd"
0.499878 19.516 2 ""
170.667 0.591329 11 ""
1365.33 332.845 11 "gemm simd"
1365.33 219.988 11 ""
EOD
plot \
  roof(x, 502.836, 58.0249) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 502.8, copy 58.02 GB/s', \
  roof(x, 248.648, 58.0249) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 248.6, copy 58.02 GB/s', \
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
0 "cpu naive" 13.1498 12.5168 13.6922 4724.97 4622.11 4826.95 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 1.26933 1.24554 1.34305 127.853 88.2207 150.933 783.306 711.22 1230.05 7650.99 7650.99 7650.99 NaN NaN NaN
2 "cpu simd" 0.120405 0.107451 0.22106 6.2328 6.03419 6.47363 55.8243 49.1016 61.1963 435.64 419.899 458.08 3077.58 3073.58 3081.58
3 "cpu openblas" 0.173489 0.152948 3.02435 9.81334 9.63258 10.1972 76.0396 74.058 76.8916 648.059 634.519 662.401 4960.7 4684.76 4990.17

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
set title 'libgpuk matmul ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 1.49349 1.35301 1.55383 225.564 220.573 233.431 2691.03 2640.91 2749.76 NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.412411 0.411584 0.58312 36.3885 33.5129 37.4005 166.69 163.795 184.635 1452.03 1386.85 1851.98 NaN NaN NaN
2 "cpu simd" 0.069884 0.067852 0.077215 2.30642 2.1647 3.04594 16.8553 16.348 17.5439 100.393 91.7937 111.946 783.651 760.083 853.856
3 "cpu openblas" 0.096254 0.092328 0.102964 3.00592 2.9412 3.84339 20.2879 20.0804 22.5475 150.833 146.963 153.672 1315.09 1251.07 1445.83

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 13.5727 13.5015 13.6547 3795.98 3766.36 3802.95 NaN NaN NaN NaN NaN NaN
1 "cpu v0" 15.7851 15.4677 16.6979 1942.82 1880.73 2096.94 NaN NaN NaN NaN NaN NaN
2 "cpu v1" 15.9612 15.8241 16.1229 338.078 336.212 360.171 2777.79 2758.45 2811.15 NaN NaN NaN
3 "cpu v2" 16.5901 16.2415 18.5911 149.222 145.112 200.54 1342.99 1260.68 1720.32 NaN NaN NaN
4 "cpu v3" 0.391599 0.389721 0.433016 24.9778 24.4114 27.9712 221.7 204.522 234.482 4176.31 4028.13 4470.36
5 "cpu v4" 0.18448 0.184114 0.222252 10.2827 10.1077 17.8918 83.3689 81.2799 88.2561 1208 1126.06 1329.7
6 "cpu v5" 0.180815 0.180149 0.203093 10.3169 10.2208 10.4726 83.1469 81.1921 88.4028 689.636 668.164 744.052

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_minplus u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_minplus u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_minplus u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_minplus u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096'

# ---- ladder: transpose
$ladder_transpose << EOD
0 "cpu naive" 11.9975 11.6894 12.4422 156.578 149.593 184.743 1296.1 1241.88 1380.03
1 "cpu blocked" 0.212036 0.186999 0.313788 4.79329 3.45826 5.87614 11.779 11.4686 11.9957

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.645112 0.570862 1.50683 9.69343 9.14131 10.6926 37.4466 35.611 44.3188
1 "cpu simd" 0.0265345 0.025228 0.042784 1.3012 1.1094 1.79661 5.76879 5.38035 5.97074

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.038087 0.037706 0.038518 0.379331 0.286658 0.664942 5.55942 5.29156 6.08609 22.6524 22.1051 23.236
1 "cpu simd" 0.003896 0.003455 0.005949 0.0808205 0.071817 0.12107 3.47938 3.19247 3.74743 15.1502 14.5138 15.7932

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
set title 'libgpuk add ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.0170555 0.017026 0.017346 0.347869 0.320148 0.463592 5.04036 4.59866 5.58533 18.059 17.8726 18.2594
1 "cpu simd" 0.002564 0.002394 0.002674 0.0608805 0.055553 0.063334 2.30422 2.15991 2.444 9.88579 9.65902 10.4431

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
set title 'libgpuk scale ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.317819 0.288871 0.380137 5.06687 4.90601 5.22499 81.4395 79.7322 82.4161 306.184 299.456 331.598
1 "cpu simd" 0.0031595 0.003025 0.003536 0.0531045 0.050976 0.054942 2.43137 2.28399 3.15701 10.3726 9.97893 11.506

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
set title 'libgpuk relu ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.3008 4.94919 5.57738 89.8321 88.9803 91.6802 362.391 358.58 367.69
1 "cpu simd" 0.0439255 0.042964 0.048222 2.37243 2.26963 2.60788 10.7619 10.571 10.9241

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.019429 0.017006 0.021622 0.30499 0.28831 0.350383 5.75699 4.97914 6.47999 19.4708 18.7594 21.054
1 "cpu simd" 0.003335 0.002504 0.004767 0.0546215 0.049323 0.055974 2.76369 2.58542 3.08668 10.3271 10.0063 10.7897

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
set title 'libgpuk copy ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 4.9837 4.64852 5.09455 74.3029 72.5847 76.1461 295.612 286.421 361.106
1 "cpu simd" 0.196418 0.175271 0.28145 5.57532 5.3893 5.69111 15.4934 14.4054 21.5304

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 3.9425 3.49216 4.16853 15.6655 13.2021 16.8085 63.1571 53.735 75.8162
1 "cpu omp" 0.617897 0.570771 0.734156 2.95595 2.81561 3.1064 13.5799 12.3679 18.3437

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 3.82696 3.76014 3.97548 15.0236 14.8321 15.6515 61.315 60.0045 66.8843
1 "cpu simd" 0.161531 0.137916 0.20123 1.24741 1.16166 1.31254 5.81824 5.26229 6.2847

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 3.71955 3.48805 4.40008 20.0632 19.8716 20.8408 112.711 107.201 125.414
1 "cpu omp" 1.9517 1.86445 3.18291 9.31954 8.91058 10.6809 48.7996 44.9689 80.3257
2 "cpu balanced" 1.9154 1.7394 3.74163 8.85542 8.6972 9.90261 46.6036 42.0458 70.5923

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
set title 'libgpuk spmv ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 0.537376 0.533617 0.597923 8.7846 8.71905 8.87028 35.0499 34.6137 35.2757
1 "cpu simd" 0.048648 0.04733 0.054691 2.6056 2.40677 2.77368 12.6509 11.9106 13.0221
2 "cpu openblas" 0.0956175 0.09327 0.104736 2.98535 2.86376 3.21195 13.191 12.8773 14.8617

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
set title 'libgpuk dot ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 0.516741 0.513817 0.560256 8.76813 8.66193 9.14806 43.5468 41.4114 46.2695
1 "cpu simd" 0.027406 0.024837 0.028703 0.654512 0.629449 0.800775 6.41261 6.00067 8.96575
2 "cpu openblas" 0.060856 0.058598 0.118226 0.889011 0.821686 1.74082 6.87733 6.39723 9.81375

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 14.3802 11.0894 15.2716 3631.62 3610.16 3758.51 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.117305 0.112378 0.124966 5.22907 5.10836 6.0796 44.9122 43.9173 45.5696 375.138 361.663 379.326 3303.37 3244.99 3666.49
2 "cpu openblas" 0.174115 0.159608 3.75736 9.31964 9.22734 9.3753 75.4362 73.8896 77.7586 609.784 581.749 664.999 4998.05 4953.7 5012.44

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-21T13:58:46Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
