# gpuk-bench charts, 2026-11-21T14:41:35Z: run 'gnuplot nvidia-h200.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'nvidia-h200-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:4096]
set yrange [0.0611589:1.2473e+06]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-21T14:41:35Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.497785 5 ""
341.333 15.7779 5 ""
1365.33 1083.14 5 ""
1365.33 1532.24 5 "matmul openblas"
42.6667 1.84015 7 ""
85.3333 15.7539 7 ""
341.333 1292.67 7 ""
341.333 1718.64 7 "batched_matmul openblas"
170.667 0.462972 9 ""
170.667 8.16047 9 ""
341.333 18.2507 9 ""
682.667 72.1752 9 ""
682.667 143.599 9 ""
682.667 612.25 9 "minplus v4"
682.667 562.925 9 ""
0.249969 1.24783 13 ""
0.249969 75.0612 13 "reduce simd"
0.0833333 0.968075 4 ""
0.0833333 10.4448 4 "add simd"
0.125 1.28167 6 ""
0.125 18.8086 6 "scale simd"
0.125 0.194564 8 ""
0.125 20.5082 8 "relu simd"
0.249985 0.341781 10 ""
0.249985 34.3417 10 "bias_relu simd"
0.625 0.980122 1 ""
0.625 46.338 1 "softmax simd"
0.249027 0.859744 3 ""
0.249027 41.3667 3 "meanpool simd"
0.228571 0.421083 14 ""
0.228571 5.24603 14 ""
0.228571 6.14705 14 "spmv balanced"
0.25 2.5738 15 ""
0.25 30.4777 15 "dot simd"
0.25 4.31639 15 ""
0.499878 2.56426 2 ""
0.499878 86.8392 2 ""
0.499878 97.1079 2 "gemv openblas"
170.667 0.486077 11 ""
1365.33 1584.12 11 "gemm simd"
1365.33 1383.19 11 ""
EOD
$be1 << EOD
1365.33 982.107 5 ""
1365.33 3237.01 5 ""
1365.33 7900.22 5 ""
1365.33 15120.1 5 ""
1365.33 20652.9 5 ""
1365.33 32635.4 5 ""
1365.33 35756.4 5 ""
1365.33 40322.4 5 ""
1365.33 45891.1 5 ""
1365.33 46313.9 5 ""
1365.33 51121.4 5 ""
1365.33 415766 5 "matmul cublas_tf32"
341.333 8322.68 7 ""
341.333 50388.4 7 "batched_matmul cublas"
682.667 972.32 9 ""
682.667 4813 9 ""
682.667 8023.24 9 ""
682.667 18668.1 9 ""
682.667 21630 9 ""
682.667 24531.2 9 "minplus v5"
0.249969 1024 13 "reduce smem_tree"
0.249969 1005.11 13 ""
0.249969 973.608 13 ""
0.249969 980.207 13 ""
0.0833333 295.915 4 ""
0.0833333 346.751 4 "add float4"
0.125 370.064 6 ""
0.125 487.03 6 "scale float4"
0.125 368.503 8 ""
0.125 486.014 8 "relu float4"
0.249985 729.825 10 ""
0.249985 977.352 10 "bias_relu float4"
0.625 1541.12 1 ""
0.625 1395.78 1 ""
0.625 2460.58 1 "softmax one_pass"
0.249027 967.098 3 "meanpool block_row"
0.228571 210.631 14 ""
0.228571 203.666 14 ""
0.228571 255.019 14 ""
0.228571 270.941 14 "spmv stream"
0.228571 261.809 14 ""
0.25 1030.16 15 "dot cublas"
0.499878 1383.35 2 "gemv cublas"
1365.33 51096.5 11 "gemm cublas"
EOD
plot \
  roof(x, 1466.27, 247.887) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 1466, copy 247.9 GB/s', \
  roof(x, 753.316, 247.887) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 753.3, copy 247.9 GB/s', \
  NaN w p pt 7 ps 1.4 lc rgb '#1f77b4' t 'cpu rungs: Intel(R) Xeon(R) Processor', \
  $be0 u 1:2:3 w p pt variable ps 1.4 lc rgb '#1f77b4' notitle, \
  $be0 u 1:2:4 w labels left offset 1,0 font ',8' tc rgb '#1f77b4' notitle, \
  roof(x, 50194.8, 3893.53) w l lw 2 dt 1 lc rgb '#d62728' t 'cuda fma roof 5.019e+04, copy 3894 GB/s', \
  roof(x, 26436, 3893.53) w l lw 2 dt 2 lc rgb '#d62728' t 'cuda add+min roof 2.644e+04, copy 3894 GB/s', \
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
0 "cpu naive" 18.0568 17.7222 19.0379 4314.08 4314.08 4314.08 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 2.07083 1.99758 2.1131 137.405 124.616 142.031 1088.86 1088.86 1088.86 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.128864 0.126236 0.166681 2.29962 2.24543 2.34342 14.9995 13.0162 52.4386 117.49 115.582 120.382 1015.12 1014.85 1015.38
3 "cpu openblas" 0.081531 0.077231 0.088843 2.79697 2.26199 2.90254 11.5529 10.2208 12.2338 92.7019 89.8956 100.17 717.585 716.64 718.53

5 "cuda naive" 0.0436 0.042176 0.045408 2.27824 2.27642 2.28346 17.7172 17.7145 17.7292 141.142 141.133 141.151 1119.54 1119.54 1119.54
6 "cuda coalesced" 0.028016 0.02704 0.03552 0.43144 0.43024 0.433472 3.28832 3.2833 3.29302 43.2108 43.1886 43.2345 339.668 339.612 339.694
7 "cuda tiled" 0.013696 0.013216 0.01488 0.279616 0.278912 0.280736 2.0995 2.09811 2.10182 16.6199 16.6043 16.6319 139.175 139.114 139.232
8 "cuda blocktile_1d" 0.028688 0.027904 0.02992 0.131216 0.130656 0.134176 1.08392 1.07565 1.09024 9.05078 9.04096 9.10003 72.7187 72.6581 72.9049
9 "cuda blocktile_2d" 0.059104 0.058624 0.06 0.18776 0.186848 0.1888 0.837536 0.835264 0.839584 6.75173 6.74816 6.75901 53.2376 53.211 53.3279
10 "cuda vec4" 0.054992 0.054432 0.05568 0.173008 0.172128 0.177856 0.534928 0.53296 0.536992 4.23749 4.21955 4.27331 33.6908 33.4239 33.8254
11 "cuda warptile" 0.04496 0.044096 0.045536 0.155984 0.155136 0.157152 0.479008 0.477856 0.481216 3.79229 3.77837 3.80016 30.7501 30.7221 30.8527
12 "cuda warptile_db" 0.019008 0.017824 0.02112 0.071376 0.070528 0.07392 0.44192 0.440224 0.442816 3.44858 3.44717 3.4519 27.268 27.2646 27.2878
13 "cuda warptile_at" 0.018176 0.0168 0.020128 0.066272 0.064768 0.067552 0.389536 0.388704 0.391616 3.04387 3.0423 3.04586 23.9592 23.9164 23.9964
14 "cuda warptile_wide" 0.02504 0.02416 0.026048 0.065296 0.063648 0.075424 0.385472 0.38432 0.3872 3.03155 3.02714 3.04403 23.7404 23.723 23.8201
15 "cuda cublas" 0.020016 0.018464 0.031328 0.064624 0.063968 0.067424 0.347696 0.34624 0.350336 2.69888 2.69488 2.70458 21.5079 21.4926 21.5335
16 "cuda cublas_tf32" 0.014144 0.013472 0.01536 0.02432 0.023328 0.026272 0.059792 0.058272 0.062912 0.3528 0.348128 0.353728 2.64454 2.63936 2.66874

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:16.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk matmul ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.36191 2.16386 2.55524 291.754 282.423 299.084 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.611733 0.592582 0.637173 33.8551 32.3266 36.0925 272.63 264.881 288.358 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.0303225 0.027642 0.035375 2.20427 1.97673 2.44703 6.15852 5.9969 6.55729 36.8933 35.0311 37.9968 212.644 184.078 248.092
3 "cpu openblas" 0.0487175 0.048671 0.067063 1.50839 1.26961 1.53867 5.81038 5.70311 5.92392 31.2854 30.2458 33.4992 159.939 149.34 187.973

5 "cuda tiled" 0.00856 0.006816 0.018464 0.075776 0.074304 0.080608 0.536464 0.534944 0.53904 4.17531 4.17248 4.18029 33.0276 33.024 33.0312
6 "cuda cublas" 0.013168 0.012608 0.014944 0.025696 0.0248 0.028576 0.098 0.097024 0.104128 0.694192 0.69152 0.696352 5.45518 5.45274 5.46362

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 22.629 22.1783 22.8484 4638.48 4638.48 4638.48 NaN NaN NaN NaN NaN NaN
1 "cpu v0" 1.79064 1.72136 1.84317 263.157 246.233 303.545 NaN NaN NaN NaN NaN NaN
2 "cpu v1" 1.75934 1.74873 1.9277 115.682 112.724 116.321 941.327 938.651 944.004 NaN NaN NaN
3 "cpu v2" 0.758062 0.687298 0.988317 40.2902 38.9113 58.1281 255.525 187.45 317.094 1904.24 1904.24 1904.24
4 "cpu v3" 0.238692 0.209567 0.264695 13.7316 13.3091 15.9122 81.2609 80.1374 95.5656 957.102 776.898 1016.27
5 "cpu v4" 0.14605 0.13537 0.164124 4.51376 4.4531 4.56042 22.92 21.3629 25.9251 224.482 145.242 247.705
6 "cpu v5" 0.196219 0.174299 0.230154 4.54652 4.3624 4.8906 30.3304 29.0445 31.0316 244.151 234.111 253.788

8 "cuda v0" 0.04248 0.0416 0.044608 2.28862 2.28582 2.29805 17.7821 17.7756 17.8008 141.352 141.344 141.413
9 "cuda v1" 0.024192 0.022432 0.027264 0.448928 0.447264 0.450208 3.46757 3.4609 3.47274 28.5558 28.5164 28.5649
10 "cuda v2" 0.013072 0.012384 0.01424 0.284784 0.284096 0.286368 2.13694 2.13546 2.14256 17.1301 17.1213 17.1469
11 "cuda v3" 0.024832 0.024032 0.026304 0.135712 0.1344 0.137472 0.97264 0.970784 0.976192 7.36222 7.35126 7.38083
12 "cuda v4" 0.06272 0.062016 0.067072 0.233712 0.233216 0.235872 0.813216 0.812096 0.819744 6.3541 6.33414 6.37142
13 "cuda v5" 0.05552 0.055008 0.057248 0.202064 0.201344 0.204192 0.73184 0.730688 0.733152 5.60262 5.59907 5.61088

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_minplus u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_minplus u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_minplus u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_minplus u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096'

# ---- ladder: transpose
$ladder_transpose << EOD
0 "cpu naive" 5.59309 5.50427 5.64393 123.523 117.421 131.766 1443.92 1443.92 1443.92
1 "cpu blocked" 0.046596 0.043997 0.139487 0.843244 0.816773 1.07081 4.91982 4.72637 5.67309

3 "cuda naive" 0.021936 0.020576 0.023264 0.286784 0.283744 0.289728 1.08254 1.07536 1.08736
4 "cuda smem" 0.010912 0.009888 0.012192 0.085296 0.083936 0.086976 0.315968 0.314784 0.317632
5 "cuda smem_padded" 0.007984 0.007232 0.009632 0.048992 0.046336 0.050016 0.177056 0.17392 0.177824
6 "cuda tile64" 0.006816 0.005888 0.008352 0.039504 0.038112 0.041056 0.143392 0.140928 0.146336

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.671925 0.658233 0.943784 13.0555 12.8895 13.3768 53.7805 50.6483 57.4093
1 "cpu simd" 0.010576 0.006836 0.04828 0.294975 0.291718 0.306875 0.894055 0.830793 1.9757

3 "cuda smem_tree" 0.008368 0.006304 0.00976 0.02184 0.020864 0.023616 0.065536 0.06304 0.070752
4 "cuda warp_shuffle" 0.00672 0.005792 0.008 0.022528 0.021024 0.032064 0.066768 0.065248 0.068096
5 "cuda grid_stride" 0.008512 0.007648 0.009696 0.02408 0.022912 0.027584 0.068928 0.067008 0.070368
6 "cuda lanes_inner" 0.008592 0.00752 0.009984 0.023776 0.022688 0.025632 0.068464 0.066976 0.069888

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.030236 0.028931 0.033163 0.471708 0.454583 0.496016 16.9614 16.5416 17.7747 69.322 67.0836 78.3677
1 "cpu simd" 0.006007 0.005214 0.007439 0.0203445 0.019066 0.026521 0.530094 0.456817 1.07357 6.42511 6.17692 6.90394

3 "cuda coalesced" 0.005808 0.004832 0.00848 0.008928 0.008384 0.013024 0.063248 0.060448 0.064864 0.226784 0.224544 0.2392
4 "cuda float4" 0.005584 0.005216 0.0064 0.007088 0.006592 0.008192 0.052464 0.05136 0.054848 0.193536 0.191872 0.195168

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
set title 'libgpuk add ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.0194635 0.01941 0.019831 0.343626 0.317357 0.356364 12.5199 12.3822 12.9708 52.3604 51.2547 55.0572
1 "cpu simd" 0.00582 0.005415 0.009424 0.018773 0.017896 0.025808 5.35283 0.546671 6.03595 3.56798 3.28519 4.24994

3 "cuda coalesced" 0.00568 0.005056 0.007968 0.008576 0.008096 0.00976 0.051328 0.049568 0.052064 0.181344 0.179104 0.183904
4 "cuda float4" 0.005936 0.004864 0.007264 0.0072 0.006464 0.007616 0.038672 0.037696 0.041408 0.137792 0.135392 0.147584

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
set title 'libgpuk scale ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.321298 0.316163 0.337025 5.12485 4.97422 5.24895 91.4406 86.4641 108.995 344.918 338.073 347.138
1 "cpu simd" 0.0057185 0.005009 0.005867 0.019431 0.017581 0.038244 0.484679 0.467776 0.628726 3.27229 2.96513 4.06251

3 "cuda coalesced" 0.005952 0.00512 0.008128 0.008768 0.008352 0.0112 0.051792 0.050112 0.052928 0.182112 0.180384 0.184224
4 "cuda float4" 0.005488 0.004704 0.006496 0.006464 0.00624 0.010304 0.038784 0.038336 0.040928 0.13808 0.1368 0.139264

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
set title 'libgpuk relu ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 6.12399 5.91829 6.1729 95.9145 91.8355 100.215 392.701 381.643 408.53
1 "cpu simd" 0.0195225 0.016735 0.023917 0.582778 0.451125 0.907353 3.9083 3.76199 4.58999

3 "cuda coalesced" 0.010832 0.009696 0.011712 0.052496 0.050272 0.053888 0.183904 0.18304 0.186688
4 "cuda float4" 0.007328 0.006528 0.00864 0.039168 0.037856 0.04144 0.137328 0.136608 0.145568

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.02203 0.021281 0.022517 0.353847 0.344944 0.427407 12.9633 12.758 13.4635 49.9863 49.3558 51.1165
1 "cpu simd" 0.006249 0.003416 0.009488 0.0161625 0.015357 0.016427 0.575763 0.561029 0.726443 3.40516 3.24577 4.08724

3 "cuda coalesced" 0.006336 0.00544 0.013216 0.009024 0.007776 0.014048 0.0512 0.050144 0.052832 0.18136 0.178336 0.183648
4 "cuda float4" 0.005584 0.004928 0.006528 0.00688 0.006528 0.007776 0.0392 0.038016 0.041664 0.137968 0.136512 0.1408

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
set title 'libgpuk copy ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 5.46211 5.4241 5.50331 104.152 91.5469 107.721 342.349 329.218 350.416
1 "cpu simd" 0.0591885 0.058218 0.077846 1.0643 0.985941 1.23003 7.24123 6.8236 7.46772

3 "cuda block_row" 0.008928 0.008512 0.010464 0.053248 0.051104 0.054976 0.217728 0.216736 0.219392
4 "cuda online" 0.011776 0.01136 0.012096 0.066096 0.065344 0.067136 0.2404 0.239776 0.24272
5 "cuda one_pass" 0.012208 0.01168 0.013984 0.045408 0.04384 0.046944 0.136368 0.13504 0.137792

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 1.91333 1.86786 2.19245 10.0666 9.93298 11.363 44.1181 43.0374 47.6887
1 "cpu omp" 0.200469 0.197516 0.230815 0.738941 0.718271 1.27102 4.2393 3.77229 5.0704

3 "cuda block_row" 0.066992 0.046656 0.06848 0.166864 0.164416 0.190752 0.598304 0.591232 0.621824

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 4.7904 4.48445 4.94241 19.8514 19.1521 20.3284 78.0568 74.6879 83.0914
1 "cpu simd" 0.0505395 0.04865 0.084393 0.285074 0.267654 0.309289 1.62229 1.53812 2.87398

3 "cuda block_row" 0.01704 0.01648 0.019488 0.037776 0.036416 0.03888 0.069392 0.068384 0.071168

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 4.14512 4.03221 4.37722 71.8611 69.7371 73.5342 318.744 315.968 321.049 4.70534 4.20815 5.06768 57.2316 56.0333 62.0236 270.16 265.057 276.458
1 "cpu omp" 0.441916 0.416129 0.559311 5.23947 4.23586 6.03455 25.5846 22.9038 33.2764 0.576842 0.564159 0.589754 3.62803 3.36206 5.18518 29.0055 28.6627 30.1855
2 "cpu balanced" 0.538199 0.407273 0.566342 4.55216 3.74528 7.92866 21.8345 20.792 24.0727 0.554326 0.526777 0.608103 3.14057 3.03036 3.24076 21.024 18.6509 29.3944

4 "cuda scalar" 0.039248 0.038496 0.040832 0.147232 0.145664 0.150272 0.637216 0.635456 0.64816 1.48379 1.48224 1.48944 10.4974 10.4332 10.644 11.0009 10.6074 11.1009
5 "cuda vector" 0.04248 0.041152 0.043872 0.167744 0.165824 0.170208 0.659008 0.651584 0.664192 0.10032 0.09536 0.12864 0.924608 0.910944 0.937696 1.04885 1.04186 1.05277
6 "cuda adaptive" 0.034992 0.033856 0.03648 0.133568 0.13216 0.134912 0.526304 0.523552 0.530016 0.046048 0.044608 0.048288 0.154976 0.153376 0.156768 0.569648 0.562784 0.5744
7 "cuda stream" 0.038608 0.037888 0.040128 0.132256 0.131712 0.133312 0.495376 0.494176 0.496896 0.039008 0.03872 0.040576 0.127488 0.126208 0.128736 0.462256 0.461408 0.467104
8 "cuda cusparse" 0.047472 0.045568 0.049216 0.139136 0.137536 0.140544 0.512656 0.51088 0.523712 0.043824 0.04288 0.044448 0.129632 0.128064 0.131008 0.471152 0.469792 0.474752

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-ladder-spmv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:8.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk spmv ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 0.674881 0.656599 0.7446 13.3675 13.0515 13.8705 52.1476 50.3217 57.7967
1 "cpu simd" 0.0113655 0.010131 0.012096 0.598623 0.58871 0.650224 4.4038 4.18091 4.77434
2 "cpu openblas" 0.273502 0.27085 0.28804 4.60615 4.23095 4.73479 31.0949 30.8176 31.8803

4 "cuda cublas" 0.012144 0.011424 0.014784 0.041472 0.04 0.043072 0.130288 0.128576 0.131808

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
set title 'libgpuk dot ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 0.676038 0.666941 0.713691 13.1306 12.8541 13.4867 52.3417 49.5842 57.3672
1 "cpu simd" 0.0097385 0.008645 0.010151 0.294814 0.287897 0.311353 1.54559 1.34061 3.89226
2 "cpu openblas" 0.011393 0.010371 0.013731 0.30489 0.297969 0.319945 1.38215 1.35954 3.78209

4 "cuda cublas" 0.009696 0.008672 0.010912 0.02824 0.02672 0.029856 0.097024 0.095744 0.09744

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 15.8161 15.234 16.1885 4417.99 4417.99 4417.99 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.111299 0.105589 0.137325 2.2101 2.14522 2.35171 14.9379 14.6761 15.9944 122.757 89.3889 125.104 694.081 678.998 709.164
2 "cpu openblas" 0.105466 0.101349 0.119097 3.81248 2.24439 4.10328 14.9087 14.5488 15.2268 82.1236 61.9283 109.905 794.912 744.45 845.374

4 "cuda cublas" 0.01992 0.019328 0.02384 0.064704 0.063584 0.067296 0.347104 0.345408 0.353952 2.69246 2.68938 2.72272 21.5184 21.5032 21.5301

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-21T14:41:35Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
