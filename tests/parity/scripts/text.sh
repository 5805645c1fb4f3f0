# Text tools of BusyBox on generated input: seq, awk (integer and floating
# point), sort (numeric, reverse, by key, unique), uniq -c, sed, tr, cut,
# wc, od, md5sum, sha1sum, sha256sum, sha512sum, gzip -9 | gzip -d, bc.
set -e
tmp=${TMPDIR:-/tmp}/tl-parity-text.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
seq 1 5000 | awk '{ printf "%d %s %d\n", ($1 * 7919) % 1009, ($1 % 3 ? "left" : "right"), $1 }' > "$tmp/rows"
sort -n -k1,1 -k3,3 "$tmp/rows" | head -n 3
sort -rn "$tmp/rows" | head -n 2
cut -d' ' -f2 "$tmp/rows" | sort | uniq -c | sed 's/^ *//'
sort -u -k1,1n "$tmp/rows" | wc -l | tr -d ' '
awk '{ s += $1; q += $3 / ($1 + 1) } END { printf "sum %d, sum of quotients %.6f\n", s, q }' "$tmp/rows"
sed -n 's/^\([0-9]*\) right \(.*\)5$/\2:\1/p' "$tmp/rows" | tail -n 3
tr 'a-z' 'A-Z' < "$tmp/rows" | grep -c RIGHT
printf 'TensorLoad\n' | od -An -tx1 | tr -s ' ' | sed 's/^ //'
for sum in md5sum sha1sum sha256sum sha512sum; do
    $sum < "$tmp/rows" | cut -c1-32
done
gzip -9 < "$tmp/rows" > "$tmp/rows.gz"
gzip -d < "$tmp/rows.gz" | cmp - "$tmp/rows" && echo "gzip round trip: identical"
echo 'scale=30; 4*a(1)' | bc -l
echo '2^200' | bc
