# summary.py DIR: the median time of every (variant, primitive, n, distribution) over
# DIR/<variant>_r<round>.csv (scankit rows; CUB rows from DIR/cub*.csv), one table.
import csv, glob, os, re, statistics, sys
d = sys.argv[1]
cells = {}
for f in sorted(glob.glob(os.path.join(d, '*.csv'))):
    base = os.path.basename(f)[:-4]
    variant = re.sub(r'_r\d+$', '', base)
    for r in csv.DictReader(open(f)):
        if not r.get('time_ms') or r.get('status', 'ok') not in ('ok', ''):
            continue
        impl = r['implementation']
        if impl not in ('scankit', 'cub'):
            continue
        v = 'cub' if impl == 'cub' else variant
        k = (r['primitive'], r.get('distribution', r.get('dist', '')), int(r['n']))
        cells.setdefault(k, {}).setdefault(v, []).append(float(r['time_ms']))
variants = sorted({v for c in cells.values() for v in c}, key=lambda v: (v == 'cub', v))
print('| primitive | dist | n | ' + ' | '.join(variants) + ' |')
print('| --- | --- | --- |' + ' ---: |' * len(variants))
for k in sorted(cells):
    c = cells[k]
    row = ['%.4f' % statistics.median(c[v]) if v in c else '-' for v in variants]
    print('| %s | %s | 2^%d | %s |' % (k[0], k[1], k[2].bit_length() - 1, ' | '.join(row)))
