#!/bin/sh
# gpuk-dist-bench-combine - put rows of gpuk-dist-bench runs on different
# rank counts together: one table, sorted by op, size and ranks, with the
# efficiency of each row against the 1-rank row of the same op, size,
# backend and threads per rank, and optionally a scaling plot.
#
#   mpiexec -n 1 gpuk-dist-bench -n 2048 > r1.txt
#   mpiexec -n 2 gpuk-dist-bench -n 2048 > r2.txt
#   mpiexec -n 4 gpuk-dist-bench -n 2048 > r4.txt
#   gpuk-dist-bench-combine r1.txt r2.txt r4.txt              # the table
#   gpuk-dist-bench-combine --plot scaling.png r*.txt         # and a plot (gnuplot)
#
# efficiency = gops_rank(P ranks) / gops(1 rank): 100% is perfect scaling;
# speedup = gops(P ranks) / gops(1 rank), the 1-rank time over this one's
# (apsp: time to solution); one under 0.01 keeps two significant digits
# (0.0031, not 0.00: tiny runs of several ranks sharing one GPU get there).
# Rows of different dtypes (gpuk-dist-bench --dtype) never meet: the
# reference is a row of the same dtype, and the table's last column says
# which (rows of runs before the dtype column count as f32).
# A second reference for thread-for-thread comparisons on one host (4 ranks
# x 4 threads against 1 rank x 16 threads): --base-threads T takes the
# 1-rank row with T threads as the reference instead of the same threads
# per rank, and efficiency = gops(P ranks) / gops(1 rank x T threads).
# Rows without a 1-rank reference show "-".
#
# Runs repeated (the same configuration in several files, e.g. rounds on a
# shared host): the reference is the median of its 1-rank rows, and after
# the table one "# median" line per configuration with more than one row
# gives the median rate of its rows and that median's efficiency.

plot=
base_threads=
while [ $# -gt 0 ]; do
    case $1 in
        --plot) plot=$2; shift 2 ;;
        --base-threads) base_threads=$2; shift 2 ;;
        -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
        --) shift; break ;;
        -*) echo "gpuk-dist-bench-combine: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dist-combine.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

# rows only (headers start with #); column 1 op, 2 n, 4 ranks, 6 backend,
# 7 threads, 10 gops, 11 gops_rank, 20 dtype (absent before it existed)
cat "$@" | grep -v '^#' | grep -v '^[[:space:]]*$' > "$tmp/rows"
if [ ! -s "$tmp/rows" ]; then
    echo "gpuk-dist-bench-combine: no rows in ${*:-standard input}" >&2
    exit 1
fi

# median of a space-separated list of numbers (insertion sort: mawk has no asort)
median_awk='
function median(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) {
        t = a[i] + 0
        for (j = i - 1; j >= 1 && a[j] + 0 > t; j--)
            a[j + 1] = a[j]
        a[j + 1] = t
    }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'

awk -v bt="$base_threads" "$median_awk"'
{
    if ($20 == "") $20 = "f32"
    row[NR] = $0
    key = $1 " " $2 " " $6 " " $20
    if ($4 == 1 && (bt == "" ? 1 : $7 == bt)) {
        k = bt == "" ? key " " $7 : key
        bases[k] = bases[k] " " $10
    }
    n = NR
}
END {
    for (k in bases)
        base[k] = median(bases[k])
    printf "# %-6s %6s %5s %5s %-7s %3s %-14s %10s %9s %9s %8s %8s %7s %6s %6s %5s %7s\n",
           "op", "n", "ranks", "grid", "backend", "thr", "comm", "ms", "gops", "gops_rank",
           "blocked%", "exposed%", "overlap", "vs_one", "eff%", "dtype", "speedup"
    for (i = 1; i <= n; i++) {
        split(row[i], f, " ")
        k = f[1] " " f[2] " " f[6] " " f[20] (bt == "" ? " " f[7] : "")
        if (k in base && base[k] > 0) {
            e = bt == "" ? 100 * f[11] / base[k] : 100 * f[10] / base[k]
            eff = sprintf("%.1f", e)
            sp = f[10] / base[k]
            sp = sprintf(sp >= 0.01 ? "%.2f" : "%.2g", sp)
        } else {
            eff = "-"
            sp = "-"
        }
        printf "%-8s %6s %5s %5s %-7s %3s %-14s %10s %9s %9s %8s %8s %7s %6s %6s %5s %7s\n",
               f[1], f[2], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12], f[13],
               f[17], f[19], eff, f[20], sp
    }
}' "$tmp/rows" > "$tmp/table"
{ head -1 "$tmp/table"; tail -n +2 "$tmp/table" | sort -k1,1 -k2,2n -k3,3n; } > "$tmp/sorted"
cat "$tmp/sorted"
# the repeated configurations: op n ranks grid backend threads dtype
awk "$median_awk"'
NR > 1 {
    k = $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $16
    if (!(k in runs)) order[++nk] = k
    runs[k]++
    g[k] = g[k] " " $9
    e[k] = e[k] " " $15   # one reference per configuration: the median eff is the median gops
    if ($15 == "-") noeff[k] = 1
}
END {
    for (i = 1; i <= nk; i++) {
        k = order[i]
        if (runs[k] < 2)
            continue
        m = median(g[k])
        eff = k in noeff ? "-" : sprintf("%.1f%%", median(e[k]))
        printf "# median of %d: %s: gops %.4g, eff %s\n", runs[k], k, m, eff
    }
}' "$tmp/sorted"

[ -n "$plot" ] || exit 0
if ! command -v gnuplot > /dev/null 2>&1; then
    echo "gpuk-dist-bench-combine: gnuplot not found: no plot" >&2
    exit 1
fi
# one data block per (op, n): ranks, gops, efficiency
awk 'NR > 1 { k = $1 " " $16 " n=" $2; if (!(k in seen)) { seen[k] = ++nk; name[nk] = k }
              line[k] = line[k] $3 " " $9 " " ($15 == "-" ? "NaN" : $15) "\n" }
     END { for (i = 1; i <= nk; i++) printf "\"%s\"\n%s\n\n", name[i], line[name[i]] }' \
    "$tmp/sorted" > "$tmp/data"
blocks=$(grep -c '^"' "$tmp/data")
cat > "$tmp/plot.gp" <<GP
set terminal pngcairo size 1100,450 noenhanced
set output '$plot'
set multiplot layout 1,2 title "gpuk-dist-bench: scaling"
set key top left
set xlabel "ranks"
set xtics 1
set grid
set ylabel "GFLOP/s (matmul), Gop/s (min-plus)"
plot for [i=0:$((blocks - 1))] '$tmp/data' index i using 1:2 with linespoints title columnheader(1)
set ylabel "efficiency against 1 rank (%)"
set yrange [0:110]
plot for [i=0:$((blocks - 1))] '$tmp/data' index i using 1:3 with linespoints title columnheader(1)
unset multiplot
GP
gnuplot "$tmp/plot.gp" && echo "# plot: $plot"
