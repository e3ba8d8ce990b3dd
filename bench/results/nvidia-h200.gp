# gpuk-bench charts, 2026-11-21T14:48:16Z: run 'gnuplot nvidia-h200.gp' in this folder

# ---- roofline
reset
set terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'
set output 'nvidia-h200-roofline.png'
set logscale xy
set grid
set key outside right top
set samples 600
set xrange [0.0416667:4096]
set yrange [0.0632097:1.2536e+06]
set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum traffic'
set ylabel 'GFLOP/s (min-plus: Gop/s)'
set title "libgpuk roofline: every rung at its largest size, 2026-11-21T14:48:16Z\n(copy, transpose and embedding do no arithmetic and are not shown)"
roof(x, p, bw) = (x * bw < p) ? x * bw : p
$be0 << EOD
170.667 0.483236 5 ""
341.333 14.4713 5 ""
1365.33 1091.64 5 ""
1365.33 1267.81 5 "matmul openblas"
42.6667 1.83985 7 ""
85.3333 15.6823 7 ""
341.333 1261.06 7 ""
341.333 1357.58 7 "batched_matmul openblas"
170.667 0.47555 9 ""
170.667 8.67333 9 ""
341.333 17.9309 9 ""
341.333 51.4975 9 ""
682.667 181.812 9 ""
682.667 644.846 9 "minplus v4"
682.667 581.711 9 ""
0.249969 1.3494 13 ""
0.249969 47.0415 13 "reduce simd"
0.0833333 1.03036 4 ""
0.0833333 10.1785 4 "add simd"
0.125 1.31473 6 ""
0.125 17.1482 6 "scale simd"
0.125 0.196118 8 ""
0.125 19.6452 8 "relu simd"
0.249985 0.330168 10 ""
0.249985 31.0678 10 "bias_relu simd"
0.625 0.877338 1 ""
0.625 43.6816 1 "softmax simd"
0.249027 0.674745 3 ""
0.249027 33.4131 3 "meanpool simd"
0.228571 0.358553 14 ""
0.228571 3.55349 14 "spmv omp"
0.228571 3.53196 14 ""
0.25 2.20819 15 ""
0.25 27.4646 15 "dot simd"
0.25 3.93215 15 ""
0.499878 1.79746 2 ""
0.499878 22.3676 2 ""
0.499878 73.8766 2 "gemv openblas"
42.6667 1.40216 11 ""
1365.33 1099.41 11 ""
1365.33 1230.23 11 "gemm openblas"
EOD
$be1 << EOD
1365.33 982.145 5 ""
1365.33 3236.85 5 ""
1365.33 7903.73 5 ""
1365.33 15133 5 ""
1365.33 20651.8 5 ""
1365.33 32705.8 5 ""
1365.33 35770.9 5 ""
1365.33 40326 5 ""
1365.33 45930.1 5 ""
1365.33 46868.7 5 ""
1365.33 51113.8 5 ""
1365.33 417867 5 "matmul cublas_tf32"
341.333 8319.39 7 ""
341.333 50384.5 7 "batched_matmul cublas"
682.667 972.26 9 ""
682.667 4810.94 9 ""
682.667 8019.53 9 ""
682.667 18676.3 9 ""
682.667 21659.8 9 ""
682.667 24526.2 9 "minplus v5"
0.249969 1033.59 13 "reduce smem_tree"
0.249969 1013.85 13 ""
0.249969 979.749 13 ""
0.249969 995.09 13 ""
0.0833333 296.564 4 ""
0.0833333 346.293 4 "add float4"
0.125 368.439 6 ""
0.125 487.88 6 "scale float4"
0.125 367.245 8 ""
0.125 487.937 8 "relu float4"
0.249985 729.444 10 ""
0.249985 971.578 10 "bias_relu float4"
0.625 1540.44 1 ""
0.625 1393.46 1 ""
0.625 2458.85 1 "softmax one_pass"
0.249027 941.905 3 "meanpool block_row"
0.228571 210.753 14 ""
0.228571 203.795 14 ""
0.228571 254.439 14 ""
0.228571 270.548 14 "spmv stream"
0.228571 261.727 14 ""
0.25 1007.76 15 "dot cublas"
0.499878 1353.44 2 "gemv cublas"
1365.33 50985.2 11 "gemm cublas"
EOD
plot \
  roof(x, 1412.01, 248.717) w l lw 2 dt 1 lc rgb '#1f77b4' t 'cpu fma roof 1412, copy 248.7 GB/s', \
  roof(x, 723.083, 248.717) w l lw 2 dt 2 lc rgb '#1f77b4' t 'cpu add+min roof 723.1, copy 248.7 GB/s', \
  NaN w p pt 7 ps 1.4 lc rgb '#1f77b4' t 'cpu rungs: Intel(R) Xeon(R) Processor', \
  $be0 u 1:2:3 w p pt variable ps 1.4 lc rgb '#1f77b4' notitle, \
  $be0 u 1:2:4 w labels left offset 1,0 font ',8' tc rgb '#1f77b4' notitle, \
  roof(x, 50072.2, 3862.16) w l lw 2 dt 1 lc rgb '#d62728' t 'cuda fma roof 5.007e+04, copy 3862 GB/s', \
  roof(x, 26383.7, 3862.16) w l lw 2 dt 2 lc rgb '#d62728' t 'cuda add+min roof 2.638e+04, copy 3862 GB/s', \
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
0 "cpu naive" 18.0563 17.8882 20.8683 4443.96 4443.96 4443.96 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 2.09683 2.08048 2.12918 142.867 140.952 144.259 1187.17 1187.17 1187.17 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.127702 0.124822 0.150902 2.3115 2.07768 2.44399 16.3639 15.9775 16.9847 122.972 108.057 141.156 1007.21 1004.54 1009.89
3 "cpu openblas" 0.107598 0.104784 0.125877 2.55015 2.04191 3.9291 14.08 13.5977 14.8876 99.2495 93.1107 101.703 867.255 865.136 869.375

5 "cuda naive" 0.043328 0.042432 0.045312 2.27918 2.27661 2.28074 17.719 17.7165 17.7283 141.17 141.142 141.194 1119.5 1119.5 1119.5
6 "cuda coalesced" 0.027696 0.026272 0.033248 0.432832 0.430112 0.446656 3.29011 3.28544 3.29286 43.2191 43.1761 43.3034 339.686 339.639 339.737
7 "cuda tiled" 0.013776 0.012928 0.016288 0.279536 0.278848 0.281504 2.10221 2.09856 2.1079 16.618 16.6127 16.6316 139.113 139.075 139.322
8 "cuda blocktile_1d" 0.02848 0.027712 0.029312 0.132016 0.130048 0.136512 1.08486 1.07846 1.10134 9.06299 9.04413 9.11933 72.6566 72.6226 72.8784
9 "cuda blocktile_2d" 0.058864 0.05792 0.066912 0.18728 0.186368 0.18864 0.836544 0.833984 0.83808 6.75227 6.74627 6.76131 53.2406 53.1982 53.2788
10 "cuda vec4" 0.055216 0.054176 0.056224 0.172608 0.171328 0.178144 0.533888 0.530624 0.540096 4.23922 4.18534 4.2793 33.6183 33.4444 33.6956
11 "cuda warptile" 0.044352 0.043776 0.046432 0.155616 0.154656 0.15712 0.4796 0.477792 0.481952 3.79674 3.78813 3.80477 30.7376 30.6928 30.7928
12 "cuda warptile_db" 0.019008 0.018272 0.022112 0.073408 0.071616 0.074528 0.442064 0.4408 0.445504 3.44638 3.44454 3.45734 27.2656 27.2632 27.268
13 "cuda warptile_at" 0.01784 0.017216 0.018976 0.06608 0.064992 0.068256 0.391616 0.390624 0.393376 3.0443 3.04278 3.04656 23.9388 23.9108 23.9622
14 "cuda warptile_wide" 0.023792 0.023456 0.02576 0.064912 0.064064 0.071456 0.378768 0.377184 0.381184 2.9508 2.94784 2.95386 23.4594 23.4523 23.4628
15 "cuda cublas" 0.020176 0.018624 0.03408 0.06696 0.06416 0.06848 0.347968 0.346624 0.349856 2.69379 2.69226 2.69856 21.5111 21.5017 21.5338
16 "cuda cublas_tf32" 0.013888 0.013024 0.015168 0.026432 0.02432 0.041856 0.059632 0.058528 0.067552 0.346928 0.344992 0.34944 2.63125 2.62538 2.63664

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
set title 'libgpuk matmul ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'

# ---- ladder: batched_matmul
$ladder_batched_matmul << EOD
0 "cpu naive" 2.44714 2.24242 2.68776 291.801 285.319 297.949 NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu blocked" 0.607295 0.598076 0.619653 32.7388 31.1415 34.0104 273.873 266.435 277.907 NaN NaN NaN NaN NaN NaN
2 "cpu simd" 0.0284025 0.026653 0.0457 2.0844 2.06297 2.34469 6.50869 5.85815 6.71761 32.1777 30.7092 33.798 217.974 210.252 226.568
3 "cpu openblas" 0.048654 0.048634 0.048705 1.53421 1.41087 1.66717 5.92363 5.61164 6.91807 32.2347 31.0456 33.8802 202.476 198.229 210.671

5 "cuda tiled" 0.00752 0.007072 0.00992 0.074864 0.073984 0.077696 0.536496 0.535168 0.5384 4.1651 4.16205 4.16861 33.0406 33.0266 33.1049
6 "cuda cublas" 0.01312 0.012544 0.014848 0.025712 0.024736 0.02752 0.096672 0.095648 0.09824 0.693504 0.692256 0.694656 5.4556 5.45258 5.46131

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
set title 'libgpuk batched_matmul ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_batched_matmul u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x64x64 b16', \
  $ladder_batched_matmul u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256 b16', \
  $ladder_batched_matmul u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '512x512x512 b16', \
  $ladder_batched_matmul u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024 b16', \
  $ladder_batched_matmul u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048 b16'

# ---- ladder: minplus
$ladder_minplus << EOD
0 "cpu naive" 23.0687 22.7962 23.3697 4515.79 4515.79 4515.79 NaN NaN NaN NaN NaN NaN
1 "cpu v0" 1.79894 1.74491 2.06201 247.596 237.443 302.828 NaN NaN NaN NaN NaN NaN
2 "cpu v1" 1.79446 1.77784 1.82411 124.251 122.509 146.641 958.117 953.981 962.253 NaN NaN NaN
3 "cpu v2" 0.685342 0.646504 0.694607 40.9617 40.4616 53.2313 333.606 328.381 337.849 NaN NaN NaN
4 "cpu v3" 0.25626 0.236773 0.265001 13.5753 13.299 15.5368 104.093 98.2436 117.693 755.939 755.939 755.939
5 "cpu v4" 0.149822 0.130228 0.166395 5.21229 4.6849 5.49712 26.3501 24.7514 28.1313 213.134 176.49 260.612
6 "cpu v5" 0.199985 0.182026 0.205743 4.55682 4.33516 4.69487 26.2094 25.6037 27.0741 236.267 234.978 241.823

8 "cuda v0" 0.04368 0.042496 0.046464 2.29688 2.29341 2.30131 17.8096 17.8034 17.812 141.36 141.353 141.453
9 "cuda v1" 0.025232 0.024064 0.027232 0.448672 0.447104 0.451616 3.47851 3.47219 3.48803 28.568 28.5439 28.6063
10 "cuda v2" 0.014368 0.013792 0.017632 0.28544 0.283936 0.287904 2.1483 2.14522 2.15498 17.138 17.1303 17.1562
11 "cuda v3" 0.025344 0.024672 0.02656 0.135984 0.13472 0.144928 0.980352 0.978048 0.986944 7.35901 7.352 7.37024
12 "cuda v4" 0.064384 0.063744 0.067616 0.234928 0.23392 0.236448 0.8196 0.818464 0.822848 6.34536 6.34 6.36016
13 "cuda v5" 0.056928 0.056064 0.059616 0.203968 0.202304 0.206816 0.738528 0.735296 0.743552 5.60376 5.59984 5.60915

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
set title 'libgpuk minplus ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_minplus u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_minplus u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_minplus u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_minplus u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096'

# ---- ladder: transpose
$ladder_transpose << EOD
0 "cpu naive" 5.88614 5.74191 6.19052 126.603 122.262 130.186 1328.36 1328.36 1328.36
1 "cpu blocked" 0.0460285 0.041916 0.083621 0.821636 0.807322 0.840336 5.09405 4.67505 6.05076

3 "cuda naive" 0.02192 0.020736 0.024256 0.287376 0.285472 0.289888 1.08075 1.07875 1.08365
4 "cuda smem" 0.010928 0.009696 0.012416 0.086032 0.084576 0.086592 0.316272 0.314208 0.32208
5 "cuda smem_padded" 0.008464 0.007104 0.008608 0.048864 0.047424 0.050752 0.17592 0.17376 0.179296
6 "cuda tile64" 0.00728 0.0064 0.00848 0.039456 0.037472 0.04064 0.141216 0.138976 0.144384

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
set title 'libgpuk transpose ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_transpose u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_transpose u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_transpose u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: reduce
$ladder_reduce << EOD
0 "cpu naive" 0.678026 0.669074 0.689435 12.1042 11.9255 12.3162 49.7325 48.8377 51.5607
1 "cpu simd" 0.008707 0.007645 0.11304 0.307656 0.301949 0.316015 1.42659 1.27552 2.27771

3 "cuda smem_tree" 0.00904 0.007328 0.022368 0.021952 0.020416 0.024608 0.064928 0.063648 0.066752
4 "cuda warp_shuffle" 0.00792 0.006656 0.009376 0.022304 0.021216 0.024224 0.066192 0.064864 0.06736
5 "cuda grid_stride" 0.009152 0.008 0.011008 0.023952 0.023168 0.028032 0.068496 0.06736 0.07008
6 "cuda lanes_inner" 0.008896 0.00832 0.010752 0.023632 0.022624 0.026656 0.06744 0.066592 0.069088

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
set title 'libgpuk reduce ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_reduce u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_reduce u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_reduce u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: add
$ladder_add << EOD
0 "cpu naive" 0.0295045 0.028398 0.041815 0.486741 0.472499 0.51636 16.4594 16.1962 16.6468 65.1313 64.2706 72.0911
1 "cpu simd" 0.0080685 0.007924 0.008163 0.0231725 0.022862 0.023404 0.730924 0.713817 1.05438 6.59322 6.54857 6.63173

3 "cuda coalesced" 0.00656 0.005536 0.008512 0.008592 0.007872 0.01152 0.063232 0.061568 0.065312 0.226288 0.225344 0.229536
4 "cuda float4" 0.00664 0.006208 0.007168 0.007392 0.0064 0.015744 0.053216 0.051296 0.05488 0.193792 0.193312 0.196704

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
set title 'libgpuk add ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_add u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_add u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_add u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_add u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: scale
$ladder_scale << EOD
0 "cpu naive" 0.0224825 0.02206 0.02311 0.358043 0.35725 0.379386 11.9107 11.7013 12.2202 51.0438 49.7089 51.8416
1 "cpu simd" 0.0066845 0.005758 0.007337 0.020925 0.017922 0.050776 0.519629 0.503521 0.58364 3.91347 3.63763 4.49187

3 "cuda coalesced" 0.006544 0.005696 0.012032 0.008688 0.00816 0.010496 0.050976 0.049696 0.054432 0.182144 0.181312 0.18304
4 "cuda float4" 0.006192 0.005856 0.007552 0.006848 0.006304 0.007808 0.039168 0.037984 0.040224 0.137552 0.13664 0.138976

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
set title 'libgpuk scale ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_scale u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_scale u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_scale u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_scale u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: relu
$ladder_relu << EOD
0 "cpu naive" 0.327041 0.31813 0.347803 5.36064 5.26676 5.51441 88.4738 87.6121 90.8216 342.187 336.019 342.532
1 "cpu simd" 0.0050165 0.004167 0.005834 0.0204945 0.018699 0.022997 0.5211 0.500185 0.681515 3.41604 3.16857 4.18112

3 "cuda coalesced" 0.00688 0.006144 0.009632 0.0084 0.008064 0.011104 0.051392 0.049952 0.052064 0.182736 0.17856 0.18528
4 "cuda float4" 0.006608 0.005856 0.059776 0.007024 0.00624 0.008064 0.039328 0.037728 0.041408 0.137536 0.136064 0.140288

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
set title 'libgpuk relu ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_relu u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: bias_relu
$ladder_bias_relu << EOD
0 "cpu naive" 6.1531 6.05406 6.18289 97.4522 95.8922 98.9058 406.513 397.011 465.098
1 "cpu simd" 0.022486 0.020439 0.04376 0.570963 0.552687 0.622533 4.32016 3.99561 4.6139

3 "cuda coalesced" 0.010416 0.009664 0.012576 0.05184 0.051072 0.054016 0.184 0.182304 0.1856
4 "cuda float4" 0.007504 0.00656 0.008352 0.03904 0.037952 0.041216 0.138144 0.137728 0.139904

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
set title 'libgpuk bias_relu ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_bias_relu u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_bias_relu u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_bias_relu u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: copy
$ladder_copy << EOD
0 "cpu naive" 0.0220205 0.021982 0.022282 0.357769 0.350966 0.450299 12.8728 12.1634 13.9132 49.9275 49.1606 53.3229
1 "cpu simd" 0.004396 0.003824 0.005685 0.015776 0.015341 0.015988 0.468308 0.426502 0.56253 4.10495 3.83294 4.51225

3 "cuda coalesced" 0.006144 0.00544 0.008096 0.009072 0.008 0.01504 0.051152 0.04992 0.05312 0.181712 0.179136 0.183232
4 "cuda float4" 0.005552 0.005056 0.006912 0.006848 0.006304 0.007648 0.038816 0.038272 0.0408 0.138464 0.136608 0.140096

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
set title 'libgpuk copy ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_copy u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '65536', \
  $ladder_copy u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_copy u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_copy u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: softmax
$ladder_softmax << EOD
0 "cpu naive" 5.92029 5.82539 5.98101 91.057 89.3549 93.641 382.457 362.289 387.633
1 "cpu simd" 0.057288 0.055117 0.092635 0.997073 0.988789 1.24334 7.68159 7.30606 8.57908

3 "cuda block_row" 0.009376 0.0088 0.018592 0.052784 0.051648 0.057728 0.217824 0.215776 0.220608
4 "cuda online" 0.012352 0.012 0.014688 0.06632 0.064192 0.068736 0.2408 0.239008 0.241664
5 "cuda one_pass" 0.012848 0.011552 0.013472 0.044816 0.044064 0.04752 0.136464 0.134912 0.138816

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
set title 'libgpuk softmax ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_softmax u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_softmax u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_softmax u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: embedding
$ladder_embedding << EOD
0 "cpu naive" 2.06764 2.00847 2.44179 13.1133 11.954 14.2566 49.293 48.59 51.0276
1 "cpu omp" 0.202431 0.199607 0.221861 0.836831 0.818851 1.00664 5.61622 5.43916 6.18107

3 "cuda block_row" 0.06872 0.048384 0.074656 0.188272 0.172192 0.205664 0.652944 0.6256 0.663424

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
set title 'libgpuk embedding ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_embedding u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '16384x256x32768', \
  $ladder_embedding u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '65536x256x32768', \
  $ladder_embedding u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '262144x256x32768'

# ---- ladder: meanpool
$ladder_meanpool << EOD
0 "cpu naive" 5.3047 5.22322 5.53774 24.8506 22.8733 25.4459 99.4581 96.0051 104.1
1 "cpu simd" 0.114208 0.05499 0.150593 5.34046 0.397208 6.02445 2.00846 1.72912 3.19805

3 "cuda block_row" 0.018768 0.01808 0.020128 0.039232 0.038304 0.041568 0.071248 0.06928 0.073952

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
set title 'libgpuk meanpool ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_meanpool u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '64x256x256', \
  $ladder_meanpool u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_meanpool u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '1024x256x256'

# ---- ladder: spmv
$ladder_spmv << EOD
0 "cpu naive" 7.82722 7.17289 8.34109 82.2968 76.938 107.586 374.331 351.305 387.953 9.19285 8.97919 9.48144 62.0162 61.0039 63.6826 279.618 269.674 288.767
1 "cpu omp" 0.715448 0.687398 0.782356 9.09658 8.26424 9.55611 37.7707 37.1064 38.8622 0.6909 0.656599 1.39316 7.1628 6.74372 7.43938 24.5891 23.393 38.8459
2 "cpu balanced" 0.68524 0.667643 0.713335 8.41587 8.32459 8.46349 38.001 37.4967 39.3444 0.884465 0.646153 1.2072 6.72987 6.41851 7.11321 30.835 25.1458 46.3054

4 "cuda scalar" 0.041504 0.040736 0.04352 0.148256 0.147776 0.149792 0.636848 0.634976 0.647104 1.49462 1.49296 1.49962 10.5075 10.439 10.6379 10.997 10.8803 11.2964
5 "cuda vector" 0.043744 0.042528 0.045568 0.16848 0.167552 0.176064 0.658592 0.65504 0.664928 0.11368 0.099392 0.130592 0.916992 0.9056 0.924128 1.04842 1.0432 1.05411
6 "cuda adaptive" 0.036864 0.036224 0.039168 0.134752 0.13264 0.135808 0.527504 0.525792 0.530272 0.05064 0.048096 0.051872 0.155872 0.153376 0.157728 0.570752 0.566272 0.575648
7 "cuda stream" 0.041232 0.039648 0.042272 0.133072 0.131936 0.134528 0.496096 0.495232 0.498112 0.042624 0.041536 0.043744 0.128352 0.127424 0.129824 0.464912 0.461888 0.48032
8 "cuda cusparse" 0.051568 0.05056 0.054464 0.140544 0.13856 0.142752 0.512816 0.511776 0.518688 0.052176 0.049824 0.054624 0.131808 0.130144 0.133472 0.471824 0.471072 0.473504

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
set title 'libgpuk spmv ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_spmv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144x16', \
  $ladder_spmv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576x16', \
  $ladder_spmv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304x16', \
  $ladder_spmv u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '262144x262144 powerlaw', \
  $ladder_spmv u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '1048576x1048576 powerlaw', \
  $ladder_spmv u 1:18:19:20:xtic(2) w yerrorlines lw 2 pt 7 t '4194304x4194304 powerlaw'

# ---- ladder: dot
$ladder_dot << EOD
0 "cpu naive" 1.31646 1.0508 1.35078 14.1196 13.6487 14.8489 60.7816 56.3233 74.998
1 "cpu simd" 0.01537 0.01175 0.027887 0.687582 0.60486 0.70519 4.88693 4.69915 5.26384
2 "cpu openblas" 0.346675 0.322798 0.380944 5.17741 5.08545 6.10341 34.1334 32.7222 38.9908

4 "cuda cublas" 0.014 0.012992 0.016416 0.042592 0.040576 0.044832 0.133184 0.131264 0.135488

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
set title 'libgpuk dot ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_dot u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1048576', \
  $ladder_dot u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '16777216', \
  $ladder_dot u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '67108864'

# ---- ladder: gemv
$ladder_gemv << EOD
0 "cpu naive" 1.083 1.01974 1.15995 18.2454 18.0155 18.8947 74.6708 72.6885 78.1684
1 "cpu simd" 0.009949 0.008816 0.016064 0.31126 0.301847 0.354598 6.00054 5.91546 6.04989
2 "cpu openblas" 0.0112995 0.010743 0.019373 0.341454 0.330425 0.353214 1.81678 1.57705 2.59481

4 "cuda cublas" 0.012592 0.011136 0.016992 0.030416 0.029376 0.045056 0.099168 0.09712 0.101056

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
set title 'libgpuk gemv ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_gemv u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024', \
  $ladder_gemv u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096', \
  $ladder_gemv u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192'

# ---- ladder: gemm
$ladder_gemm << EOD
0 "cpu naive" 23.9305 23.7223 24.5452 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN
1 "cpu simd" 0.130244 0.128786 0.192578 2.03859 1.92112 2.32259 15.5757 15.3043 16.9139 123.249 121.292 135.882 1000.09 999.795 1000.39
2 "cpu openblas" 0.10993 0.105822 0.114192 2.56737 2.47994 2.66826 14.1531 12.8166 14.4176 113.159 109.867 115.306 893.742 876.517 910.968

4 "cuda cublas" 0.021408 0.020032 0.02448 0.069808 0.06896 0.074336 0.354096 0.350208 0.357728 2.72682 2.7184 2.73171 21.5653 21.5173 21.7235

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
set title 'libgpuk gemm ladder: time per rung, 2026-11-21T14:48:16Z'
plot \
  $ladder_gemm u 1:3:4:5:xtic(2) w yerrorlines lw 2 pt 7 t '256x256x256', \
  $ladder_gemm u 1:6:7:8:xtic(2) w yerrorlines lw 2 pt 7 t '1024x1024x1024', \
  $ladder_gemm u 1:9:10:11:xtic(2) w yerrorlines lw 2 pt 7 t '2048x2048x2048', \
  $ladder_gemm u 1:12:13:14:xtic(2) w yerrorlines lw 2 pt 7 t '4096x4096x4096', \
  $ladder_gemm u 1:15:16:17:xtic(2) w yerrorlines lw 2 pt 7 t '8192x8192x8192'
