# gpuk-bench charts, 2026-11-21T13:48:44Z: run 'gnuplot cpu-2core-epyc.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:4096]
set yrange [0.0719677:1508.62]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-21T13:48:44Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.556003 5 ""
682.667 22.8534 5 ""
1365.33 264.975 5 "matmul simd"
1365.33 142.913 5 ""
85.3333 1.51359 7 ""
170.667 22.7002 7 ""
341.333 124.945 7 ""
341.333 138.387 7 "batched_matmul openblas"
170.667 0.318524 9 ""
170.667 0.449734 9 ""
341.333 5.53466 9 ""
341.333 8.03393 9 ""
682.667 21.8576 9 ""
682.667 59.2314 9 ""
682.667 205.807 9 "minplus v5"
0.249969 1.9412 13 ""
0.249969 12.3625 13 "reduce simd"
0.0833333 3.16142 4 ""
0.0833333 4.41055 4 "add simd"
0.125 3.56361 6 ""
0.125 6.46477 6 "scale simd"
0.125 0.22044 8 ""
0.125 7.04464 8 "relu simd"
0.249985 0.366659 10 ""
0.249985 13.0489 10 "bias_relu simd"
0.625 1.21042 1 ""
0.625 23.0485 1 "softmax simd"
0.249027 1.17481 3 ""
0.249027 12.3524 3 "meanpool simd"
0.228571 1.16553 14 ""
0.228571 3.32809 14 ""
0.228571 3.37645 14 "spmv balanced"
0.25 3.96382 15 ""
0.25 12.2897 15 "dot simd"
0.25 10.3675 15 ""
0.499878 3.47719 2 ""
0.499878 24.0368 2 ""
0.499878 24.4987 2 "gemv openblas"
170.667 0.641818 11 ""
1365.33 169.274 11 "gemm simd"
1365.33 133.476 11 ""
EOD
plot \
  roof(x, 502.873, 63.004) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 502.9, copy 63 GB/s', \
  roof(x, 253.796, 63.004) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 253.8, copy 63 GB/s', \
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
0 "cpu naive" 14.0824 13.1503 14.3365 3862.36 3775.24 4155.14 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 1.21602 1.2039 1.74964 84.2064 82.2275 86.1365 690.501 671.743 780.992 6013.93 5985.65 6042.22 NaN NaN NaN
2 "cpu simd" 0.105398 0.104385 0.242131 5.83929 5.65267 6.77361 48.4111 47.149 49.7057 439.047 417.35 460.422 4149.5 3347.63 6879.51
3 "cpu openblas" 0.289137 0.28832 0.334619 9.12223 8.92418 9.56264 72.9513 72.1932 74.8548 614.454 597.559 639.604 7693.55 7693.55 7693.55

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
set title 'libgpuk matmul ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 1.22987 1.18691 1.30317 223.457 218.153 264.855 2837.61 2819.42 3073.29 NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.420538 0.418684 0.499846 20.1244 19.8379 22.9671 215.938 165.58 306.526 1513.63 1445.8 1752.09 NaN NaN NaN
2 "cpu simd" 11.9974 7.99827 16.0015 4.10993 3.60237 5.38518 367.995 52.5193 388.004 633.984 567.982 660.007 2200 2167.98 2240
3 "cpu openblas" 0.0804355 0.080029 0.080721 8.62771 7.56365 23.4397 41.8543 39.8056 43.3102 312.052 301.878 371.184 1986.3 1293.93 2534.51

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 14.6444 13.7023 16.3646 6741.98 6741.98 6741.98 NaN NaN NaN NaN NaN NaN
1 "cpu v0" 30.5152 29.7756 37.3622 4775.01 4740.31 4915.37 NaN NaN NaN NaN NaN NaN
2 "cpu v1" 38.2848 33.947 40.5203 682.064 408.301 721.778 3104.05 2834.28 5327.13 NaN NaN NaN
3 "cpu v2" 36.17 35.6598 44.317 215.246 193.393 263.612 2138.42 1295.81 2347.98 NaN NaN NaN
4 "cpu v3" 21.9972 0.432405 24.4086 35.6131 31.5428 42.3301 379.501 349.822 432.351 6287.92 5207.58 7368.26
5 "cpu v4" 0.190134 0.189463 0.226748 13.8601 12.8851 15.737 183.99 176.212 200.019 2320.37 2160.91 2403.94
6 "cpu v5" 0.189062 0.188532 0.197244 14.778 13.3957 16.0564 192.915 104.513 207.999 667.804 648.639 2016.95

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_minplus u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_minplus u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_minplus u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_minplus u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096'

# ---- ladder: transpose
$ladder_transpose << EOD
0 "cpu naive" 6.42392 6.34961 6.53986 131.41 127.24 140.086 962.327 943.212 1024.73
1 "cpu blocked" 0.155967 0.153429 0.244295 3.21734 3.04062 3.48651 11.9117 11.8208 12.122

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.501262 0.496721 0.562048 8.44928 8.42044 8.56894 34.5709 34.1154 35.3144
1 "cpu simd" 0.0234905 0.021933 0.027321 1.1134 1.0034 1.22991 5.42842 5.34343 7.31524

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.017411 0.017286 0.018918 0.290093 0.287158 0.323192 5.2417 5.13071 5.51243 21.2274 20.687 23.0161
1 "cpu simd" 0.0031545 0.002945 0.004437 0.0842455 0.082093 0.089814 3.87314 3.66846 4.01194 15.2155 14.7874 15.9755

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
set title 'libgpuk add ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.0172705 0.016956 0.118707 0.270248 0.26839 0.309111 5.24983 4.74789 11.1033 18.8317 18.1385 19.6284
1 "cpu simd" 0.00315 0.002694 0.004096 0.0598645 0.054481 0.152979 2.43977 2.37424 2.54811 10.3807 9.95833 10.7674

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
set title 'libgpuk scale ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.265161 0.264104 0.317364 4.59469 4.52011 4.93141 77.7071 74.9524 84.2435 304.431 303.21 312.857
1 "cpu simd" 0.002664 0.002543 0.003184 0.0484625 0.046639 0.050115 2.33034 2.16938 2.46011 9.52623 9.33824 10.7331

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
set title 'libgpuk relu ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.60548 5.54958 5.67857 91.9471 91.1167 92.7799 366.056 363.706 373.857
1 "cpu simd" 0.054376 0.052768 0.056744 2.55455 2.39017 2.81023 10.2858 10.163 10.4289

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.0163545 0.016295 0.017006 0.265651 0.264625 0.26807 4.31726 4.27662 4.41231 17.0962 16.9253 17.4747
1 "cpu simd" 0.0022085 0.002164 0.002474 0.047311 0.045739 0.049674 2.28403 2.18469 2.37852 7.90747 5.02491 9.27393

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
set title 'libgpuk copy ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 4.4148 4.34813 4.52497 69.4271 68.7865 71.0463 277.213 273.789 323.211
1 "cpu simd" 0.139683 0.137496 0.144536 3.40516 3.35221 3.53594 14.5582 14.218 15.5127

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 3.65296 3.35806 3.81586 14.7665 12.9883 16.9581 59.4078 56.8081 61.8962
1 "cpu omp" 0.496676 0.459046 0.641838 2.81772 2.71665 2.98197 12.1766 11.5757 12.642

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 3.59736 3.54113 3.69062 14.4018 14.2449 14.5949 57.1229 56.5682 57.8795
1 "cpu simd" 0.145197 0.131536 0.171656 1.12998 1.07923 1.24226 5.43284 5.34067 5.51375

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 3.48982 3.44228 3.63473 22.7878 22.3839 23.2447 115.156 106.51 137.651
1 "cpu omp" 1.64987 1.57062 1.76273 8.44677 8.30438 8.48892 40.3288 37.8893 46.0895
2 "cpu balanced" 1.58667 1.54874 1.65222 8.49488 8.42415 8.74532 39.7512 38.5861 42.0396

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
set title 'libgpuk spmv ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 0.521328 0.518754 0.579735 8.33696 8.23883 9.26728 33.8607 33.3549 35.2867
1 "cpu simd" 0.0467895 0.045918 0.047271 2.41342 2.33241 2.51976 10.9211 10.6858 11.2018
2 "cpu openblas" 0.088176 0.08748 0.088603 2.98985 2.85738 3.15176 12.946 12.8523 13.3071

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
set title 'libgpuk dot ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 0.513502 0.510392 0.597232 8.36494 8.24999 8.45331 38.5995 38.2224 40.137
1 "cpu simd" 0.0239255 0.023064 0.024867 1.09205 0.97166 1.14468 5.58383 5.50794 6.11011
2 "cpu openblas" 0.051272 0.050786 0.051857 1.10071 1.0416 1.55999 5.47858 5.39605 6.39857

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 12.9478 12.8414 15.1211 3345.94 3295.36 3401.83 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.132018 0.123544 0.157174 6.70742 6.33235 6.81305 46.9031 45.6249 53.5672 856.277 806.873 891.928 6495.47 6495.47 6495.47
2 "cpu openblas" 0.287173 0.284895 0.370142 9.76189 9.48489 9.85098 84.2818 73.2915 168.375 1265.09 1201.68 1345.36 8237.51 6989.55 9485.47

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-21T13:48:44Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
