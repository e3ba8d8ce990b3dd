# gpuk-bench charts, 2026-11-24T15:06:55Z: run 'gnuplot cpu-2core-epyc.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'cpu-2core-epyc-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:2048]
set yrange [0.0693484:693.871]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-24T15:06:55Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.520359 5 ""
341.333 17.5371 5 ""
682.667 177.571 5 ""
682.667 208.634 5 "matmul openblas"
85.3333 1.00586 7 ""
170.667 16.6878 7 ""
341.333 161.175 7 ""
341.333 191.774 7 "batched_matmul openblas"
170.667 0.472664 9 ""
170.667 0.907384 9 ""
341.333 6.10191 9 ""
341.333 12.1663 9 ""
682.667 17.6197 9 ""
682.667 80.2249 9 ""
682.667 103.925 9 "minplus packed"
170.667 0.650857 9 ""
682.667 93.1332 9 ""
0.249969 1.20542 13 ""
0.249969 6.48638 13 "reduce simd"
0.0833333 2.02827 4 ""
0.0833333 3.55281 4 "add simd"
0.125 3.37087 6 ""
0.125 5.72124 6 "scale simd"
0.125 0.210112 8 ""
0.125 5.30704 8 "relu simd"
0.249985 0.361093 10 ""
0.249985 10.1986 10 "bias_relu simd"
0.625 1.05524 1 ""
0.625 13.4616 1 "softmax simd"
0.249027 0.976967 3 ""
0.249027 7.54883 3 "meanpool simd"
0.228571 0.331739 14 ""
0.228571 1.0308 14 "spmv omp"
0.228571 0.974074 14 ""
0.25 2.03931 15 ""
0.25 6.9173 15 "dot simd"
0.25 6.32955 15 ""
0.499878 2.25816 2 ""
0.499878 12.591 2 ""
0.499878 12.913 2 "gemv openblas"
170.667 0.51061 11 ""
682.667 178.676 11 ""
682.667 200.988 11 "gemm openblas"
EOD
plot \
  roof(x, 231.29, 69.3182) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 231.3, copy 69.32 GB/s', \
  roof(x, 117.068, 69.3182) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 117.1, copy 69.32 GB/s', \
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
0 "cpu naive" 12.9763 12.8315 13.1192 4126.93 4126.93 4126.93 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 1.77306 1.75604 1.81703 124.501 114.017 147.169 979.631 931.808 1042.37 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.33478 0.326211 0.395261 15.7024 14.6695 17.7811 95.5947 95.0409 98.1563 773.993 753.742 803.39 NaN NaN NaN
3 "cpu openblas" 0.269206 0.257274 0.285647 11.6737 11.2109 17.1729 83.3803 82.9782 86.0614 658.757 647.993 677.658 NaN NaN NaN

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
set title 'libgpuk matmul ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.26109 2.22578 2.37439 221.264 218.153 223.514 4269.93 4269.93 4269.93 NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.439685 0.433232 0.449001 23.9823 23.7226 24.2618 240.28 232.318 270.146 2058.97 1985.94 2060.18 NaN NaN NaN
2 "cpu simd" 0.0998938 0.0980928 0.103289 4.54247 4.45255 5.54899 33.484 30.0115 37.4925 240.723 222.29 335.023 1705.46 1608.58 1797.56
3 "cpu openblas" 0.0742617 0.0738403 0.0763301 3.28948 3.20939 3.61288 24.4458 22.7826 25.9707 205.677 190.016 251.854 1433.34 1391.12 1829.02

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 14.3874 14.2214 14.8293 4543.36 4543.36 4543.36 NaN NaN NaN NaN NaN NaN 13.7015 12.7856 14.6644 3299.47 3294.79 3304.16 NaN NaN NaN NaN NaN NaN
1 "cpu omp" 7.41037 7.09067 8.7049 2366.67 2346.8 2387.09 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 "cpu transposed" 4.669 4.6179 4.88378 336.529 332.808 388.897 2815.49 2772.67 2858.31 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 "cpu ilp" 2.50164 2.45014 2.63376 187.664 168.222 208.437 1412.08 1320.64 1464.44 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 "cpu simd_k" 0.634381 0.631747 1.08528 33.4163 30.5626 38.4971 343.008 275.699 500.865 7800.32 7800.32 7800.32 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 "cpu regtile" 0.377116 0.371435 0.389007 24.8692 24.5783 26.0122 223.662 202.192 238.874 1713.17 1676.99 1784.57 0.207196 0.193307 0.277281 25.1936 24.1836 30.7611 204.546 186.563 244.439 1475.72 1421.52 1485.93
6 "cpu packed" 0.385094 0.37373 0.411849 25.8311 24.5654 27.7042 177.719 171.648 197.031 1322.48 1316 1346.17 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-24T15:06:55Z'
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
0 "cpu naive" 5.88406 5.8517 6.11492 117.047 116.53 117.457 480.576 435.386 490.598
1 "cpu blocked" 0.128824 0.124534 0.130357 7.01713 6.68445 7.43594 21.5427 18.188 26.337

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.834122 0.822014 0.879119 13.9596 13.892 14.1666 55.6728 55.2812 61.0149
1 "cpu simd" 0.0264285 0.025265 0.0279373 2.51265 2.31711 2.71646 10.3461 9.42644 21.5777

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.0212106 0.0207263 0.0216921 0.332088 0.325857 0.352477 7.5146 7.22289 7.81741 33.0867 31.2274 34.6867
1 "cpu simd" 0.00698313 0.00615603 0.00859124 0.0750879 0.0674956 0.110847 4.71493 4.53868 6.17785 18.889 18.2863 19.5171

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
set title 'libgpuk add ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.028714 0.0188808 0.0357986 0.555572 0.508701 0.572997 8.75128 5.44288 9.22631 19.9085 19.5951 21.6484
1 "cpu simd" 0.0045526 0.00442076 0.00482812 0.0587162 0.0567035 0.0641322 2.72384 2.69212 3.12227 11.7298 11.5278 12.5081

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
set title 'libgpuk scale ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.228426 0.216058 0.238369 4.96316 4.9266 5.0192 80.6421 78.2461 89.9081 319.396 314.269 336.68
1 "cpu simd" 0.00655292 0.00583941 0.00695341 0.0951052 0.0920009 0.180247 2.88286 2.74882 3.03022 12.6452 12.3606 15.2238

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
set title 'libgpuk relu ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 5.37417 5.31498 5.93523 87.7761 86.847 89.0785 371.699 348.707 394.515
1 "cpu simd" 0.0884476 0.086524 0.0923005 3.71499 3.55394 3.83104 13.1604 12.1646 13.6931

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.0366521 0.0356287 0.0382835 0.600401 0.569234 0.792886 9.34264 9.23017 9.91913 37.9259 36.9558 57.9527
1 "cpu simd" 0.00573258 0.00545574 0.00646699 0.080525 0.0765435 0.0840452 2.71458 2.57338 4.28881 13.3056 11.7997 14.0554

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
set title 'libgpuk copy ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 4.94094 4.8906 5.21352 79.5273 79.2518 80.1147 317.979 315.664 326.122
1 "cpu simd" 0.205505 0.203505 0.233828 7.4527 7.22239 7.61683 24.926 23.19 28.399

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 6.95012 6.06708 8.9804 21.9761 21.2453 23.897 89.7714 88.3364 93.7117
1 "cpu omp" 1.51041 1.39745 1.91909 5.84271 5.49144 13.2053 25.5425 23.7636 28.4554

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 3.90888 3.83853 4.00104 17.0162 16.814 19.068 68.691 68.2297 69.7294
1 "cpu simd" 0.141762 0.122612 0.252685 1.6695 1.48438 1.90918 8.88997 8.25432 11.767

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 4.21494 4.0791 4.60144 24.7719 21.5233 29.5896 404.588 325.846 426.341 5.07776 4.92903 5.24444 24.1572 23.6421 26.2859 330.095 279.789 362.889
1 "cpu omp" 2.74128 2.6313 5.67018 12.6224 10.8677 17.2587 130.207 105.893 149.218 3.77713 3.674 4.13415 18.2401 17.5057 19.2078 271.565 245.687 298.288
2 "cpu balanced" 2.71092 2.4875 5.43085 11.2468 10.9145 14.4711 137.79 106.064 191.115 3.76933 3.70462 4.0631 18.8359 18.0259 19.4189 262.959 243.89 278.942

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
set title 'libgpuk spmv ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 0.873588 0.852464 0.944295 14.7194 14.4749 15.8857 65.8152 62.4172 70.3443
1 "cpu simd" 0.087269 0.0848716 0.0905095 5.54248 5.18006 6.03836 19.4032 18.3685 24.3217
2 "cpu openblas" 0.0859916 0.0843369 0.0891235 5.33737 5.12922 6.01224 21.2049 20.5866 22.3833

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
set title 'libgpuk dot ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 1.04928 0.83615 1.1682 14.4549 14.378 18.2258 59.4368 59.2164 59.9748
1 "cpu simd" 0.0292782 0.0271842 0.0317995 2.27505 2.12609 2.34893 10.6598 10.0489 12.0567
2 "cpu openblas" 0.0326006 0.031131 0.0347534 2.09116 2.01347 2.15163 10.394 9.83867 11.4371

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 16.4603 13.726 19.2919 4205.72 4205.72 4205.72 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.228088 0.210663 0.236635 13.8534 13.5919 14.2648 98.2258 93.5659 103.746 769.209 747.381 790.995 NaN NaN NaN
2 "cpu openblas" 0.195847 0.191421 0.200456 10.8393 10.6934 11.5297 83.8074 82.9444 88.7797 683.818 653.439 697.608 NaN NaN NaN

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-24T15:06:55Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
