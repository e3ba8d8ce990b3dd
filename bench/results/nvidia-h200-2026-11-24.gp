# gpuk-bench charts, 2026-11-24T05:02:31Z: run 'gnuplot nvidia-h200.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:4096]
set yrange [1.00154:1.23762e+06]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-24T05:02:31Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
682.667 973.29 5 ""
1365.33 3338.67 5 ""
1365.33 7862.92 5 ""
1365.33 14849.7 5 ""
1365.33 20599.6 5 ""
1365.33 32663.5 5 ""
1365.33 36085.7 5 ""
1365.33 40268.6 5 ""
1365.33 47434.7 5 ""
1365.33 47755.4 5 ""
1365.33 51250 5 ""
1365.33 412541 5 "matmul cublas_tf32"
341.333 976.538 7 ""
341.333 5263.27 7 ""
341.333 8315.52 7 ""
341.333 17064.2 7 ""
341.333 20134 7 ""
341.333 32865.1 7 ""
341.333 37447.8 7 ""
341.333 39954.8 7 ""
341.333 47005.7 7 ""
341.333 47318.7 7 ""
341.333 50373.6 7 "batched_matmul cublas"
682.667 973.151 9 ""
682.667 4890.31 9 ""
682.667 8181.53 9 ""
682.667 17771.7 9 ""
682.667 21674.1 9 ""
682.667 24471.8 9 ""
682.667 973.024 9 ""
682.667 22284.6 9 ""
682.667 29535.7 9 ""
682.667 54718.5 9 "minplus dpx_i16x2"
0.249969 1002.22 13 "reduce smem_tree"
0.249969 977.693 13 ""
0.249969 946.582 13 ""
0.249969 951.089 13 ""
0.0833333 298.187 4 ""
0.0833333 337.543 4 "add float4"
0.125 372.794 6 ""
0.125 485.059 6 "scale float4"
0.125 369.347 8 ""
0.125 478.966 8 "relu float4"
0.249985 735.907 10 ""
0.249985 970.23 10 "bias_relu float4"
0.625 1548.63 1 ""
0.625 1402.68 1 ""
0.625 2443.66 1 "softmax one_pass"
0.249027 924.67 3 "meanpool block_row"
0.228571 211.071 14 ""
0.228571 207.136 14 ""
0.228571 254.934 14 ""
0.228571 270.6 14 "spmv stream"
0.228571 262.136 14 ""
0.25 1005.83 15 "dot cublas"
0.499878 1404.89 2 "gemv cublas"
1365.33 51242.9 11 "gemm cublas"
EOD
plot \
  roof(x, 64588, 4142.52) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cuda fma roof 6.459e+04, copy 4143 GB/s', \
  roof(x, 28884.7, 4142.52) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cuda add+min roof 2.888e+04, copy 4143 GB/s', \
  NaN w p pt 7 ps 1.4 lc rgb '#1f77b4' t 'cuda rungs: NVIDIA H200', \
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
0 "cuda naive" 0.043008 0.041472 0.045056 2.27942 2.27683 2.29104 17.7248 17.72 17.7349 141.211 141.201 141.223 NaN NaN NaN
1 "cuda coalesced" 0.02624 0.025312 0.027392 0.43384 0.429216 0.447104 3.28966 3.28733 3.29296 41.698 41.6804 41.7332 329.326 329.312 329.328
2 "cuda tiled" 0.013344 0.01248 0.017728 0.279904 0.278464 0.289888 2.09917 2.09677 2.1064 16.6945 16.667 16.7097 139.835 139.788 139.92
3 "cuda blocktile_1d" 0.028464 0.027616 0.03072 0.138832 0.13776 0.139904 1.0901 1.08371 1.09814 9.26074 9.22909 9.35443 74.0428 73.9023 74.1356
4 "cuda blocktile_2d" 0.05904 0.05856 0.060128 0.191376 0.191008 0.192448 0.843984 0.840608 0.845888 6.75677 6.74784 6.76637 53.3754 53.3535 53.405
5 "cuda vec4" 0.054768 0.05392 0.056928 0.175872 0.174976 0.177504 0.539008 0.536096 0.542624 4.26242 4.24371 4.38906 33.6617 33.536 33.8274
6 "cuda warptile" 0.044144 0.043424 0.045568 0.155456 0.15456 0.15696 0.475488 0.472512 0.478688 3.77234 3.76333 3.78355 30.4695 30.4366 30.5183
7 "cuda warptile_db" 0.018448 0.017376 0.020416 0.076016 0.074144 0.077856 0.443792 0.442432 0.447072 3.45075 3.44611 3.45606 27.3044 27.2845 27.3125
8 "cuda warptile_at" 0.017184 0.016096 0.01888 0.067056 0.06608 0.070624 0.378592 0.377952 0.384096 2.94339 2.93936 2.95555 23.1795 23.1039 23.1895
9 "cuda warptile_wide" 0.023376 0.02288 0.024192 0.066 0.065792 0.068896 0.371936 0.370496 0.379136 2.89024 2.88851 2.89862 23.0238 22.9558 23.0616
10 "cuda cublas" 0.017792 0.016608 0.020288 0.066512 0.06576 0.068992 0.349408 0.348224 0.3512 2.68582 2.68314 2.68989 21.4539 21.4445 21.5296
11 "cuda cublas_tf32" 0.012832 0.01104 0.01728 0.024416 0.023584 0.027072 0.061312 0.060608 0.068 0.361456 0.351072 0.382464 2.66522 2.65744 2.6903

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:11.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk matmul ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cuda naive" 0.015536 0.014144 0.017248 0.577488 0.576384 0.58128 4.46086 4.45389 4.46966 35.294 35.2805 35.3011 281.482 281.472 281.488
1 "cuda coalesced" 0.010864 0.009984 0.012736 0.114336 0.113504 0.117344 0.876896 0.875904 0.879776 6.60019 6.59827 6.61331 52.2256 52.1849 52.2971
2 "cuda tiled" 0.007568 0.00656 0.008032 0.075472 0.07472 0.077728 0.535552 0.534816 0.537344 4.15709 4.15536 4.15974 33.056 33.0422 33.1288
3 "cuda blocktile_1d" 0.012368 0.010784 0.013696 0.040608 0.03952 0.0432 0.295248 0.293024 0.298016 2.10618 2.10074 2.11082 16.1084 16.0956 16.1437
4 "cuda blocktile_2d" 0.017872 0.017152 0.018976 0.065168 0.064448 0.065824 0.257696 0.254496 0.262784 1.71843 1.71443 1.72586 13.6524 13.6381 13.6624
5 "cuda vec4" 0.016608 0.015008 0.01728 0.060544 0.05984 0.062496 0.17856 0.173952 0.179616 1.11131 1.10131 1.11722 8.36382 8.3376 8.39341
6 "cuda warptile" 0.015248 0.013184 0.019872 0.044448 0.043936 0.045472 0.137584 0.136512 0.138944 0.984464 0.9792 0.989696 7.3403 7.32339 7.36397
7 "cuda warptile_db" 0.014464 0.01408 0.015008 0.033984 0.033088 0.035104 0.12 0.119328 0.121024 0.886032 0.883488 0.891168 6.87973 6.87622 6.89226
8 "cuda warptile_at" 0.0136 0.012832 0.014944 0.032352 0.03168 0.033984 0.103328 0.102048 0.104704 0.755264 0.751648 0.757536 5.84776 5.84186 5.86106
9 "cuda warptile_wide" 0.019152 0.018176 0.020704 0.033312 0.032 0.034336 0.102048 0.101024 0.102592 0.746016 0.744096 0.754944 5.80907 5.8041 5.81197
10 "cuda cublas" 0.01296 0.012192 0.014848 0.026256 0.025408 0.027264 0.097552 0.096704 0.100032 0.70832 0.699712 0.732672 5.45678 5.45421 5.49414

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-batched_matmul.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:10.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cuda naive" 0.04264 0.041728 0.04688 2.28155 2.28006 2.28358 17.7507 17.7388 17.7566 141.231 141.214 141.237 0.042272 0.041728 0.043872 2.2817 2.28016 2.29251 17.7506 17.7429 17.7719 141.249 141.239 141.268
1 "cuda transposed" 0.023856 0.0232 0.025472 0.458304 0.455744 0.458816 3.47819 3.47126 3.48368 28.1044 28.06 28.1347 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 "cuda tiled" 0.01288 0.012608 0.013824 0.279904 0.278688 0.2808 2.10654 2.10333 2.10896 16.7987 16.7914 16.809 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 "cuda regtile_4x4" 0.034048 0.033344 0.03488 0.150368 0.149408 0.15168 1.05576 1.05053 1.06992 7.73357 7.71088 7.74106 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 "cuda regtile_8x8" 0.066032 0.062624 0.06784 0.23352 0.232256 0.234016 0.814112 0.81056 0.81872 6.34115 6.33638 6.34678 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 "cuda pipelined" 0.05592 0.055264 0.05696 0.204064 0.202656 0.205056 0.733056 0.731456 0.734336 5.61622 5.61158 5.62682 0.061456 0.060352 0.063072 0.225408 0.22448 0.227296 0.80256 0.801088 0.804416 6.16744 6.16374 6.17382
6 "cuda dpx" NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.04632 0.046048 0.047328 0.164832 0.163616 0.167712 0.608208 0.606304 0.612288 4.65331 4.64896 4.66461
7 "cuda dpx_i16x2" NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.0744 0.071616 0.076672 0.20024 0.19696 0.202208 0.390256 0.388704 0.39408 2.51174 2.50966 2.51565

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-minplus.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:7.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk minplus ladder: time per rung, 2026-11-24T05:02:31Z'
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
0 "cuda naive" 0.021248 0.02016 0.022816 0.276528 0.273792 0.2792 1.04872 1.04509 1.0519
1 "cuda smem" 0.011088 0.010016 0.012832 0.085248 0.08416 0.087104 0.315376 0.314016 0.317888
2 "cuda smem_padded" 0.009136 0.007168 0.019168 0.048144 0.045952 0.050208 0.173312 0.170656 0.176224
3 "cuda tile64" 0.008208 0.007424 0.009376 0.039104 0.037376 0.041216 0.139872 0.137248 0.144256

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-transpose.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:3.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk transpose ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cuda smem_tree" 0.008896 0.008032 0.011392 0.02296 0.022304 0.024256 0.06696 0.066112 0.069664
1 "cuda warp_shuffle" 0.008336 0.006656 0.009248 0.0236 0.022848 0.024576 0.06864 0.06704 0.073184
2 "cuda grid_stride" 0.010176 0.009344 0.02432 0.02552 0.024704 0.026816 0.070896 0.069728 0.07248
3 "cuda lanes_inner" 0.009648 0.00864 0.012608 0.025696 0.024672 0.026784 0.07056 0.06896 0.073216

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-reduce.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:3.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk reduce ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cuda coalesced" 0.006256 0.005568 0.008576 0.009328 0.008896 0.010624 0.062816 0.06176 0.064 0.225056 0.22416 0.22752
1 "cuda float4" 0.00632 0.00528 0.00784 0.007728 0.006656 0.008864 0.053232 0.051424 0.05552 0.198816 0.1976 0.201792

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-add.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk add ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cuda coalesced" 0.007088 0.006464 0.010464 0.009904 0.009408 0.012768 0.052064 0.050592 0.053952 0.180016 0.176992 0.181856
1 "cuda float4" 0.007264 0.00656 0.037024 0.008288 0.007904 0.023456 0.041008 0.039456 0.042944 0.138352 0.136736 0.14032

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-scale.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk scale ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cuda coalesced" 0.007568 0.006688 0.011872 0.010864 0.009728 0.011776 0.051424 0.05056 0.054848 0.181696 0.180864 0.198016
1 "cuda float4" 0.007488 0.006656 0.009568 0.009152 0.007648 0.01824 0.040448 0.039168 0.053856 0.140112 0.13648 0.141984

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-relu.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk relu ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cuda coalesced" 0.011072 0.01008 0.013056 0.0532 0.05184 0.05424 0.182384 0.180768 0.190048
1 "cuda float4" 0.007808 0.007136 0.008064 0.03928 0.03808 0.04 0.138336 0.13648 0.139648

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-bias_relu.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cuda coalesced" 0.00704 0.006432 0.010464 0.009888 0.009344 0.011552 0.051728 0.051168 0.052896 0.18152 0.178976 0.182304
1 "cuda float4" 0.007808 0.006432 0.008928 0.008352 0.007456 0.00976 0.040336 0.038752 0.042432 0.139088 0.13744 0.140672

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-copy.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:1.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk copy ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cuda block_row" 0.010528 0.008928 0.01184 0.05432 0.05328 0.063168 0.216672 0.215296 0.21856
1 "cuda online" 0.012896 0.012288 0.01408 0.066016 0.064512 0.066432 0.239216 0.2384 0.241952
2 "cuda one_pass" 0.012848 0.011968 0.014528 0.04632 0.045056 0.048736 0.137312 0.133376 0.139392

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-softmax.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:2.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk softmax ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cuda block_row" 0.060704 0.057376 0.074368 0.221744 0.217216 0.24528 0.728752 0.668448 0.76272

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-embedding.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk embedding ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cuda block_row" 0.019392 0.018112 0.019968 0.038864 0.03792 0.041056 0.072576 0.070432 0.074784

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-meanpool.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk meanpool ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cuda scalar" 0.04208 0.040992 0.042624 0.150272 0.14848 0.151968 0.635888 0.633024 0.639808 1.4901 1.48854 1.49984 10.3152 10.2536 10.4684 10.8404 10.5966 11.083
1 "cuda vector" 0.04344 0.042304 0.045664 0.167888 0.165952 0.172032 0.647968 0.643648 0.653632 0.091952 0.086432 0.113088 0.888784 0.884544 0.892256 1.02205 1.01347 1.0305
2 "cuda adaptive" 0.036992 0.035744 0.038464 0.136528 0.134048 0.138528 0.52648 0.525024 0.529504 0.04728 0.046112 0.048736 0.160544 0.15712 0.163776 0.57144 0.568928 0.584736
3 "cuda stream" 0.040992 0.040128 0.042464 0.135152 0.13392 0.137088 0.496 0.494176 0.497728 0.040048 0.038816 0.04144 0.129216 0.127584 0.131456 0.46328 0.460864 0.466048
4 "cuda cusparse" 0.052176 0.050976 0.055584 0.145504 0.141632 0.148544 0.512016 0.510432 0.514016 0.049968 0.04848 0.064 0.139168 0.132352 0.152832 0.47128 0.470688 0.472384

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-spmv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:4.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk spmv ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cuda cublas" 0.014384 0.01184 0.015872 0.04296 0.042368 0.044096 0.13344 0.13056 0.145472

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-dot.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk dot ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cuda cublas" 0.01152 0.01104 0.014848 0.02832 0.027296 0.030464 0.095536 0.092128 0.098368

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-gemv.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk gemv ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cuda cublas" 0.018 0.016288 0.04384 0.066688 0.065024 0.071264 0.34832 0.346784 0.35808 2.69874 2.68531 2.75136 21.4569 21.4378 21.5266

EOD
reset
set terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'
set output 'nvidia-h200-2026-11-24-ladder-gemm.png'
set logscale y
set grid ytics mytics
set key outside right top title 'size'
set xtics rotate by -35 left nomirror
set xrange [-0.7:0.7]
set ylabel 'ms per run (median; bars: min-max)'
set title 'libgpuk gemm ladder: time per rung, 2026-11-24T05:02:31Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
