# gpuk-bench charts, 2026-11-24T10:26:48Z: run 'gnuplot cpu-2core-epyc.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:2048]
set yrange [0.0710054:702.552]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-24T10:26:48Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.588214 5 ""
341.333 16.8184 5 ""
682.667 184.352 5 ""
682.667 208.844 5 "matmul openblas"
85.3333 1.02144 7 ""
170.667 16.2322 7 ""
341.333 176.889 7 ""
341.333 194.083 7 "batched_matmul openblas"
170.667 0.463415 9 ""
170.667 0.9375 9 ""
341.333 6.40753 9 ""
341.333 13.8765 9 ""
682.667 21.9406 9 ""
682.667 86.2846 9 ""
682.667 105.395 9 "minplus packed"
170.667 0.681751 9 ""
682.667 90.5555 9 ""
0.249969 1.22095 13 ""
0.249969 8.66661 13 "reduce simd"
0.0833333 2.22704 4 ""
0.0833333 3.65213 4 "add simd"
0.125 3.3045 6 ""
0.125 5.40734 6 "scale simd"
0.125 0.213016 8 ""
0.125 5.98019 8 "relu simd"
0.249985 0.373127 10 ""
0.249985 11.1162 10 "bias_relu simd"
0.625 1.04085 1 ""
0.625 16.4785 1 "softmax simd"
0.249027 1.01058 3 ""
0.249027 6.71878 3 "meanpool simd"
0.228571 0.319441 14 ""
0.228571 0.513634 14 ""
0.228571 0.597356 14 "spmv balanced"
0.25 2.3501 15 ""
0.25 8.19846 15 "dot simd"
0.25 7.04179 15 ""
0.499878 2.21992 2 ""
0.499878 13.9886 2 "gemv simd"
0.499878 13.2192 2 ""
170.667 0.585845 11 ""
682.667 183.838 11 ""
682.667 206.95 11 "gemm openblas"
EOD
plot \
  roof(x, 234.184, 51.8137) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 234.2, copy 51.81 GB/s', \
  roof(x, 117.289, 51.8137) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 117.3, copy 51.81 GB/s', \
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
0 "cpu naive" 14.3174 14.0648 15.143 3650.86 3650.86 3650.86 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 1.76951 1.75615 1.8462 120.513 111.105 140.28 1021.49 992.498 1257.84 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.215967 0.199848 0.272955 14.8394 14.4312 15.0566 94.5433 93.7391 96.3153 745.526 735.014 851.554 NaN NaN NaN
3 "cpu openblas" 0.330439 0.182571 0.371505 11.6252 10.9878 11.8936 82.478 81.7313 86.859 658.095 649.226 669.341 NaN NaN NaN

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
set title 'libgpuk matmul ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.4345 2.06573 2.78685 238.815 234.684 248.651 4204.83 4204.83 4204.83 NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.510496 0.437223 0.800279 25.7442 23.8158 31.2517 230.844 215.804 237.143 2116.77 1922.59 2265.84 NaN NaN NaN
2 "cpu simd" 0.115195 0.0983798 0.131601 5.08909 4.76649 5.68907 29.3905 28.6111 31.5192 202.105 197.224 229.646 1553.96 1522.44 1593.93
3 "cpu openblas" 0.0752199 0.0740486 0.0850695 4.56078 4.3894 4.76676 23.2218 22.6254 28.7223 170.661 168.637 178.02 1416.29 1389.69 1427.41

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 14.4212 14.3497 14.5525 4634.04 4634.04 4634.04 NaN NaN NaN NaN NaN NaN 13.1953 12.8442 14.2454 3149.95 3073.84 3226.07 NaN NaN NaN NaN NaN NaN
1 "cpu omp" 14.041 13.8599 14.2013 2290.65 2281.09 2291 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 "cpu transposed" 14.2242 14.1896 14.3117 325.806 323.388 331.424 2681.2 2675.84 2686.56 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 "cpu ilp" 14.5932 14.5385 17.9144 155.639 152.896 166.423 1238.06 1234.06 1280.98 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 "cpu simd_k" 0.714547 0.702512 0.813146 28.6441 28.2118 30.4191 259.676 245.913 286.609 6264.15 6264.15 6264.15 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 "cpu regtile" 0.427304 0.420023 0.46539 21.2075 21.0178 21.9454 174.733 170.462 183.112 1592.86 1587.12 1602.75 0.233014 0.225761 0.243897 16.2135 16.0292 22.1045 142.167 135.585 155.494 1517.73 1499.03 1524.91
6 "cpu packed" 0.438822 0.430193 0.45181 22.11 21.5674 22.4538 170.269 166.587 171.976 1304.03 1300.09 1349.71 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-24T10:26:48Z'
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
0 "cpu naive" 6.20653 6.10896 6.33236 116.523 105.57 118.745 477.978 473.048 479.833
1 "cpu blocked" 0.144813 0.138011 0.164355 3.83458 3.41821 4.297 18.1762 16.9696 18.6126

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.822269 0.816055 0.865649 13.6915 13.6196 13.8811 54.9646 54.8634 55.1182
1 "cpu simd" 0.0242702 0.0240356 0.0252688 1.37321 1.27985 1.94205 7.74338 7.60923 8.05751

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.0202588 0.0198572 0.024696 0.40014 0.325477 0.424415 7.16808 7.02686 7.88621 30.1336 27.4589 70.2796
1 "cpu simd" 0.00509341 0.00448535 0.00714154 0.0680652 0.066747 0.0772025 4.86821 4.40964 5.67237 18.3752 17.9602 19.0327

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
set title 'libgpuk add ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.0186686 0.0179832 0.0237555 0.288626 0.284986 0.315243 4.93262 4.79311 6.47476 20.3083 19.4436 25.3716
1 "cpu simd" 0.00550601 0.00547236 0.00569424 0.0558263 0.05308 0.0598427 2.67257 2.61904 3.17305 12.4107 11.1846 19.8546

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
set title 'libgpuk scale ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.225037 0.21661 0.243432 4.8893 4.86243 4.91911 78.4301 78.2176 78.8744 315.041 314.322 316.075
1 "cpu simd" 0.00359984 0.00334786 0.00397069 0.0471317 0.0445233 0.0478925 2.60123 2.54414 2.70623 11.2219 11.0127 11.5245

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
set title 'libgpuk relu ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.32797 5.29418 5.71385 87.3822 86.9442 98.8449 359.711 346.458 372.585
1 "cpu simd" 0.0493151 0.04482 0.0558696 2.99525 2.81126 3.65964 12.0741 11.6307 13.2285

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.0361683 0.0356489 0.0409664 0.582719 0.56886 0.614962 9.28149 9.22459 9.69824 37.2243 36.9943 43.4466
1 "cpu simd" 0.00522335 0.0048585 0.00676258 0.0508018 0.0471533 0.0661519 1.84784 1.68513 2.05034 7.44984 7.21009 8.73603

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
set title 'libgpuk copy ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 4.91064 4.85675 5.42556 78.9084 78.7969 80.1331 322.375 314.751 346.341
1 "cpu simd" 0.210761 0.203226 0.23991 5.03608 4.92847 5.26824 20.3626 19.8782 22.8702

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 4.6792 4.52074 5.23904 21.1137 20.5438 21.7509 84.6448 82.0703 89.6039
1 "cpu omp" 1.54915 1.33544 1.76844 7.27732 6.89372 7.73905 35.2403 33.921 37.2374

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 3.99142 3.93027 4.08302 16.3381 16.2808 16.8835 66.4062 64.9674 71.4105
1 "cpu simd" 0.226376 0.220782 0.332548 2.29885 2.16548 3.03093 9.98826 9.06633 10.7093

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 4.56937 4.3054 5.77154 22.0429 21.352 26.609 420.164 382.53 463.947 5.27003 5.16784 5.69713 25.7762 25.1251 27.8975 394.102 356.912 429.155
1 "cpu omp" 3.3829 3.3061 3.99532 13.4233 12.6849 14.0492 261.31 205.268 295.769 3.7029 3.61196 3.8999 18.2977 17.9933 18.9641 233.706 209.901 246.691
2 "cpu balanced" 3.31482 3.29242 5.79278 12.994 11.7538 16.6034 224.686 210.323 263.691 3.8177 3.69819 3.98572 18.8146 18.4223 22.1426 243.541 227.697 268.42

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
set title 'libgpuk spmv ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 1.02495 0.99479 1.09691 13.9704 13.8979 14.9316 57.1115 55.3326 65.7549
1 "cpu simd" 0.0483911 0.0461173 0.0528529 5.06804 4.82696 5.25435 16.3711 16.0383 16.9807
2 "cpu openblas" 0.0943527 0.0885595 0.154132 4.95885 4.82312 5.227 19.0602 18.5501 20.0049

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
set title 'libgpuk dot ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 0.849723 0.835289 0.896765 14.9325 14.2617 18.5473 60.4606 59.0105 67.7801
1 "cpu simd" 0.0284068 0.026664 0.0296153 2.16679 1.97044 2.35227 9.59478 9.12483 10.6866
2 "cpu openblas" 0.0598426 0.057996 0.12876 1.96459 1.84126 2.86962 10.1532 9.63883 10.5772

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 14.8322 14.2961 17.4144 3665.62 3665.62 3665.62 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.368271 0.362634 0.37911 15.4432 12.4803 18.6238 94.2777 93.6063 98.194 747.61 734.35 794.447 NaN NaN NaN
2 "cpu openblas" 0.350381 0.337258 0.393391 10.9416 10.53 21.8601 82.9896 82.2369 92.5474 664.117 657.546 669.398 NaN NaN NaN

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-24T10:26:48Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
