#!/usr/bin/env python3
"""gl_workloads.py -- quadtex against Mesa llvmpipe on the OpenGL throughput workloads, in one run.

    python3 benches/gl_workloads.py [--quadtex PATH] [--variants a,b] [--frames 11] [--warmup 3] [--rounds 1]
                                    [--profile vulkan|nv_sass|ptx|d3d11] [--accurate-profile vulkan]
                                    [--skip-llvmpipe-timing]
                                    [--out-dir out/gl_workloads]

The llvmpipe side is the oracle's `perf_gl.py` (eleven variants: a full-screen
1920x1080 RGBA8 quad, one texture lookup per fragment).  It is not copied here:
it is taken from the llvmpipe oracle scripts in the directory named by the
environment variable QUADTEX_ORACLE (CI supplies them).  Its
install section: Mesa's EGL/llvmpipe packages and `pip install -r
requirements.txt` (numpy, moderngl, glcontext, PyOpenGL).  The quadtex side is
`quadtex bench gl-workloads`, which renders the same eleven variants.

Steps:
  1. Writes perf_gl.py's texture data into OUT_DIR: level0.bin (level 0 of the
     colour texture, 1024x1024 RGBA8, first row at t = 0) and shadow.bin (the
     1024x1024 D32F shadow texture, little-endian float32).  quadtex reads them
     with --level0 / --shadow, so both renderers sample the same texels.
  2. Timing, interleaved so that both sides see the same machine state:
     perf_gl.py t1 (LP_NUM_THREADS=1), quadtex --threads 1, perf_gl.py
     tdefault (all cores), quadtex --threads 0 (one per core), perf_gl.py
     tdefault_oracle (all cores, GALLIVM_PERF=no_quad_lod,no_aos_sampling:
     llvmpipe's accurate mode).  Same --frames / --warmup / --variants for all.
     With --rounds R the whole sequence runs R times and each side keeps, per
     variant and configuration, its best round (the lowest median): on a
     shared machine whose speed changes for seconds at a time, one round can
     land one side in a slow spell that the other missed.
     quadtex runs with --profile against llvmpipe's defaults and with
     --accurate-profile (default `vulkan`, exact f32 weights and per-pixel
     LOD) against its accurate mode: when the two differ, a second all-cores
     quadtex run with the accurate profile follows tdefault_oracle.
  3. Frames: each variant drawn once on llvmpipe with its defaults and once in
     the accurate mode (a subprocess of this script runs perf_gl.py's own
     worker for one frame and captures its glReadPixels; GL rows are flipped
     so that the top row comes first), and by quadtex with each profile (--dump PNGs,
     decoded here with a small zlib-based PNG reader).  Per variant: the mean
     absolute difference in 1/255 units over all channels, the share of pixels
     whose four channels are all within 2/255, and whether the frames are
     bit-identical.
  4. Prints one table (Mpix/s, ratios quadtex / llvmpipe -- above 1 means
     quadtex is faster -- and the frame figures) under a header line (date,
     CPU, nproc, git commit, quadtex profile and isa), and writes everything
     to OUT_DIR/summary.json.  Logs and frames stay in OUT_DIR.

--skip-llvmpipe-timing times quadtex only (the frame comparison still runs).
"""
import argparse
import contextlib
import datetime
import io
import json
import os
import re
import struct
import subprocess
import sys
import time
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
W, H = 1920, 1080
ACCURATE_PERF = 'no_quad_lod,no_aos_sampling'
LLVMPIPE_CONFIGS = ('t1', 'tdefault', 'tdefault_oracle')


# ----------------------------------------------------------------------------- oracle

def oracle_dir():
    d = os.environ.get('QUADTEX_ORACLE') or os.path.join(REPO, '..', 'shared', 'oracle')
    d = os.path.abspath(d)
    if not os.path.isfile(os.path.join(d, 'perf_gl.py')):
        raise SystemExit(f'perf_gl.py not found in {d} (set QUADTEX_ORACLE to the oracle directory)')
    return d


def import_perf_gl():
    d = oracle_dir()
    if d not in sys.path:
        sys.path.insert(0, d)
    import perf_gl
    return perf_gl


# ----------------------------------------------------------------------------- inputs

def texture_data():
    """perf_gl.py's level 0 (1024x1024x4 uint8, row 0 = t 0) and shadow depth field (1024x1024 float32)."""
    level0 = np.random.default_rng(1234).integers(0, 256, (1024, 1024, 4), dtype=np.uint8)
    yy, xx = np.mgrid[0:1024, 0:1024] / 1024.0
    dep = (0.5 + 0.25 * np.sin(xx * 37.0) * np.cos(yy * 23.0)).astype(np.float32)
    return level0, dep


def write_inputs(out_dir):
    level0, dep = texture_data()
    paths = os.path.join(out_dir, 'level0.bin'), os.path.join(out_dir, 'shadow.bin')
    with open(paths[0], 'wb') as f:
        f.write(np.ascontiguousarray(level0).tobytes())
    with open(paths[1], 'wb') as f:
        f.write(np.ascontiguousarray(dep, dtype='<f4').tobytes())
    return paths


# ----------------------------------------------------------------------------- PNG

def read_png_rgba8(path):
    """Decode an 8-bit RGBA, non-interlaced PNG into an (H, W, 4) uint8 array (top row first).

    Every filter (None, Sub, Up, Average, Paeth) predicts a byte from its left,
    upper and upper-left neighbours only, so all pixels on one anti-diagonal
    (row + column = k) can be reconstructed at once: H + W - 1 numpy steps
    instead of a Python loop over every byte.
    """
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(f'{path}: not a PNG')
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        elif kind == b'IEND':
            break
    if ihdr is None:
        raise ValueError(f'{path}: no IHDR')
    w, h, depth, ctype, _comp, _filt, interlace = ihdr
    if (depth, ctype, interlace) != (8, 6, 0):
        raise ValueError(f'{path}: only 8-bit RGBA non-interlaced PNGs are supported '
                         f'(bit depth {depth}, colour type {ctype}, interlace {interlace})')
    raw = np.frombuffer(zlib.decompress(b''.join(idat)), np.uint8)
    if raw.size != h * (w * 4 + 1):
        raise ValueError(f'{path}: {raw.size} bytes of image data, expected {h * (w * 4 + 1)}')
    raw = raw.reshape(h, w * 4 + 1)
    ftype = raw[:, 0].astype(np.int32)
    if ftype.max(initial=0) > 4:
        raise ValueError(f'{path}: unknown filter type {ftype.max()}')
    filt = raw[:, 1:].reshape(h, w, 4).astype(np.int32)
    out = np.zeros((h + 1, w + 1, 4), np.int32)  # out[r + 1, c + 1] = pixel (r, c); zero border
    rows_all = np.arange(h)
    for k in range(h + w - 1):
        r = rows_all[max(0, k - w + 1):min(h - 1, k) + 1]
        c = k - r
        a = out[r + 1, c]       # left
        b = out[r, c + 1]       # up
        cc = out[r, c]          # up-left
        pa, pb, pc = np.abs(b - cc), np.abs(a - cc), np.abs(a + b - 2 * cc)
        paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, cc))
        ft = ftype[r][:, None]
        pred = np.select([ft == 1, ft == 2, ft == 3, ft == 4], [a, b, (a + b) >> 1, paeth], 0)
        out[r + 1, c + 1] = (filt[r, c] + pred) & 255
    return out[1:, 1:].astype(np.uint8)


# ----------------------------------------------------------------------------- llvmpipe frames (GL worker)

def gl_worker(variants, frame_dir):
    """Runs perf_gl.py's own worker for one frame per variant (no warm-up) and keeps each
    RGBA/UNSIGNED_BYTE glReadPixels it makes: the context, textures, mappings, shaders and
    sampler state are perf_gl.py's, unchanged.  Frames are saved top row first as .npy."""
    os.environ.setdefault('PYOPENGL_PLATFORM', 'egl')
    perf_gl = import_perf_gl()
    if variants:
        keep = set(variants)
        perf_gl.VARIANTS[:] = [v for v in perf_gl.VARIANTS if v[0] in keep]
    import OpenGL.GL as GL
    captured = []
    read_pixels = GL.glReadPixels

    def capture(x, y, w, h, fmt, typ, pixels=None, *rest, **kw):
        r = read_pixels(x, y, w, h, fmt, typ, pixels, *rest, **kw)
        if fmt == GL.GL_RGBA and typ == GL.GL_UNSIGNED_BYTE and isinstance(pixels, np.ndarray):
            captured.append(pixels.copy())
        return r

    GL.glReadPixels = capture
    sink = io.StringIO()  # perf_gl's timing JSON (one frame; not used)
    with contextlib.redirect_stdout(sink):
        perf_gl.worker(1, 0)
    GL.glReadPixels = read_pixels
    names = [v[0] for v in perf_gl.VARIANTS]
    if len(captured) != len(names):
        raise SystemExit(f'captured {len(captured)} frames for {len(names)} variants')
    os.makedirs(frame_dir, exist_ok=True)
    for name, px in zip(names, captured):
        # glReadPixels row 0 is the bottom of the window; store the top row first.
        np.save(os.path.join(frame_dir, name + '.npy'), np.ascontiguousarray(px.reshape(H, W, 4)[::-1]))
    renderer = json.loads(sink.getvalue().strip().splitlines()[-1])['renderer']
    print(json.dumps({'renderer': renderer, 'variants': names}))


def llvmpipe_frames(variants, frame_dir, accurate, log):
    env = dict(os.environ)
    if accurate:
        env['GALLIVM_PERF'] = ACCURATE_PERF
    else:
        env.pop('GALLIVM_PERF', None)
    cmd = [sys.executable, os.path.abspath(__file__), '--gl-worker', frame_dir, '--variants', ','.join(variants)]
    r = run_logged(cmd, log, env=env)
    return json.loads(r.stdout.strip().splitlines()[-1])


# ----------------------------------------------------------------------------- processes

def run_logged(cmd, log, env=None):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    with open(log, 'w') as f:
        f.write('$ ' + ' '.join(cmd) + '\n' + r.stdout + r.stderr)
    note(f'  {os.path.basename(log)[:-4]}: {time.perf_counter() - t0:.1f} s')
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
        raise SystemExit(f'failed (exit {r.returncode}): {" ".join(cmd)}  (log: {log})')
    return r


def note(msg):
    print(msg, file=sys.stderr, flush=True)


def llvmpipe_timing(cfg, a, out_dir, logs, tag=''):
    out = os.path.join(out_dir, f'perf_gl_{cfg}{tag}.json')
    cmd = [sys.executable, os.path.join(oracle_dir(), 'perf_gl.py'), '--configs', cfg, '--out', out,
           '--frames', str(a.frames), '--warmup', str(a.warmup), '--variants', ','.join(a.variant_list)]
    run_logged(cmd, os.path.join(logs, f'llvmpipe_{cfg}{tag}.log'))
    with open(out) as f:
        j = json.load(f)
    return j['renderer'], j['results'][cfg]


def quadtex(a, inputs, logs, tag, threads, frames, warmup, extra=(), profile=None):
    out = os.path.join(a.out_dir, f'quadtex_{tag}.json')
    cmd = [a.quadtex, 'bench', 'gl-workloads', '--variants', ','.join(a.variant_list), '--threads', str(threads),
           '--frames', str(frames), '--warmup', str(warmup), '--profile', profile or a.profile,
           '--level0', inputs[0], '--shadow', inputs[1], '--json', out, *extra]
    r = run_logged(cmd, os.path.join(logs, f'quadtex_{tag}.log'))
    head = next((ln for ln in r.stdout.splitlines() if ln.startswith('quadtex gl-workloads:')), '')
    with open(out) as f:
        return head, json.load(f)['variants']


# ----------------------------------------------------------------------------- machine

def cpu_model():
    try:
        with open('/proc/cpuinfo') as f:
            for ln in f:
                if ln.startswith('model name'):
                    return ln.split(':', 1)[1].strip()
    except OSError:
        pass
    return 'unknown CPU'


def git_commit():
    try:
        rev = subprocess.run(['git', '-C', REPO, 'rev-parse', '--short', 'HEAD'],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(['git', '-C', REPO, 'status', '--porcelain', '--untracked-files=no'],
                               capture_output=True, text=True).stdout.strip()
        return rev + (' (+ uncommitted changes)' if dirty else '')
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


# ----------------------------------------------------------------------------- comparison

def compare(ref, got):
    d = np.abs(ref.astype(np.int16) - got.astype(np.int16))
    return {'mean_abs_diff_255': float(d.mean()),
            'within_2_255': float((d.max(axis=2) <= 2).mean()),
            'max_abs_diff_255': int(d.max()),
            'identical': bool(np.array_equal(ref, got))}


def fmt(x, spec):
    return '-' if x is None else format(x, spec)


def ratio(q, l):
    return None if q is None or l is None or l == 0 else q / l


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quadtex', default=os.path.join(REPO, 'target', 'release', 'quadtex'))
    ap.add_argument('--variants', help='comma-separated subset of the variants (default: all eleven)')
    ap.add_argument('--frames', type=int, default=11, help='timed frames per variant (median reported)')
    ap.add_argument('--warmup', type=int, default=3, help='frames before timing')
    ap.add_argument('--rounds', type=int, default=1,
                    help='time the whole interleaved sequence this many times; each side\'s best round per variant')
    ap.add_argument('--profile', default='vulkan', help='quadtex sampler profile (against llvmpipe\'s defaults)')
    ap.add_argument('--accurate-profile', default='vulkan',
                    help='quadtex sampler profile against llvmpipe\'s accurate mode')
    ap.add_argument('--skip-llvmpipe-timing', action='store_true', help='time quadtex only')
    ap.add_argument('--out-dir', default=os.path.join(REPO, 'out', 'gl_workloads'))
    ap.add_argument('--gl-worker', metavar='FRAME_DIR', help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.rounds < 1:
        raise SystemExit('--rounds must be at least 1')

    if a.gl_worker:
        gl_worker(a.variants.split(',') if a.variants else None, a.gl_worker)
        return 0

    all_variants = [v[0] for v in import_perf_gl().VARIANTS]
    a.variant_list = all_variants
    if a.variants:
        want = a.variants.split(',')
        bad = [v for v in want if v not in all_variants]
        if bad:
            raise SystemExit(f'unknown variant(s) {bad}; known: {",".join(all_variants)}')
        a.variant_list = [v for v in all_variants if v in want]
    a.quadtex = os.path.abspath(a.quadtex)
    if not os.access(a.quadtex, os.X_OK):
        raise SystemExit(f'{a.quadtex} not found (cargo build --release)')
    a.out_dir = os.path.abspath(a.out_dir)
    logs = os.path.join(a.out_dir, 'logs')
    os.makedirs(logs, exist_ok=True)

    started = datetime.datetime.now().astimezone()
    inputs = write_inputs(a.out_dir)
    note(f'wrote {inputs[0]} and {inputs[1]}')

    # 2. timing, interleaved; with --rounds R the whole sequence R times,
    # each side's best round (lowest median) per variant and configuration
    timing = {}
    rounds = []
    renderer = None
    head = head_all = ''
    nthreads = os.cpu_count()
    paired = a.accurate_profile != a.profile
    note(f'timing ({a.frames} frames after {a.warmup} warm-up per variant, {a.rounds} round(s))')
    for k in range(a.rounds):
        got = {}
        tag = '' if a.rounds == 1 else f'_r{k + 1}'
        if not a.skip_llvmpipe_timing:
            renderer, got['llvmpipe_t1'] = llvmpipe_timing('t1', a, a.out_dir, logs, tag)
        head, got['quadtex_t1'] = quadtex(a, inputs, logs, 't1' + tag, 1, a.frames, a.warmup)
        if not a.skip_llvmpipe_timing:
            _, got['llvmpipe_tdefault'] = llvmpipe_timing('tdefault', a, a.out_dir, logs, tag)
        head_all, got['quadtex_tall'] = quadtex(a, inputs, logs, 'tall' + tag, 0, a.frames, a.warmup)
        if not a.skip_llvmpipe_timing:
            _, got['llvmpipe_tdefault_oracle'] = llvmpipe_timing('tdefault_oracle', a, a.out_dir, logs, tag)
        if paired:
            _, got['quadtex_tall_accurate'] = quadtex(a, inputs, logs, 'tall_accurate' + tag, 0, a.frames,
                                                      a.warmup, profile=a.accurate_profile)
        else:
            got['quadtex_tall_accurate'] = got['quadtex_tall']
        rounds.append({key: {name: r['median_ms'] for name, r in v.items()} for key, v in got.items()})
        for key, v in got.items():
            best = timing.setdefault(key, {})
            for name, r in v.items():
                if name not in best or r['median_ms'] < best[name]['median_ms']:
                    best[name] = r
    qt_threads_all = next(iter(timing['quadtex_tall'].values()))['threads']

    # 3. frames
    note('frames')
    fdirs = {'quadtex': os.path.join(a.out_dir, 'frames_quadtex'),
             'quadtex_accurate': os.path.join(a.out_dir, 'frames_quadtex_accurate'),
             'default': os.path.join(a.out_dir, 'frames_llvmpipe_default'),
             'accurate': os.path.join(a.out_dir, 'frames_llvmpipe_accurate')}
    quadtex(a, inputs, logs, 'dump', 0, 1, 0, extra=('--dump', fdirs['quadtex']))
    if paired:
        quadtex(a, inputs, logs, 'dump_accurate', 0, 1, 0, extra=('--dump', fdirs['quadtex_accurate']),
                profile=a.accurate_profile)
    else:
        fdirs['quadtex_accurate'] = fdirs['quadtex']
    gl = llvmpipe_frames(a.variant_list, fdirs['default'], False, os.path.join(logs, 'frames_llvmpipe_default.log'))
    llvmpipe_frames(a.variant_list, fdirs['accurate'], True, os.path.join(logs, 'frames_llvmpipe_accurate.log'))
    renderer = renderer or gl['renderer']
    frames = {}
    notes = []
    for name in a.variant_list:
        frames[name] = {}
        for mode, qdir in (('default', 'quadtex'), ('accurate', 'quadtex_accurate')):
            q = read_png_rgba8(os.path.join(fdirs[qdir], name + '.png'))
            if q.shape != (H, W, 4):
                raise SystemExit(f'{name}: quadtex frame is {q.shape}, expected {(H, W, 4)}')
            ref = np.load(os.path.join(fdirs[mode], name + '.npy'))
            c = compare(ref, q)
            if c['mean_abs_diff_255'] > 20:
                # Orientation check: would an upside-down quadtex frame match better?
                c['flipped_mean_abs_diff_255'] = compare(ref, q[::-1])['mean_abs_diff_255']
                notes.append(f'{name} vs llvmpipe {mode}: mean abs diff {c["mean_abs_diff_255"]:.2f}/255; with the '
                             f'quadtex frame flipped vertically {c["flipped_mean_abs_diff_255"]:.2f}/255')
            frames[name][mode] = c

    # 4. table
    isa = re.search(r'isa (\S+?),', head)
    header = (f'{started:%Y-%m-%d %H:%M %Z} | {cpu_model()} | nproc {nthreads} | quadtex {git_commit()} | '
              f'profile {a.profile} (accurate columns: {a.accurate_profile}) | isa {isa.group(1) if isa else "?"}')
    cols = ['variant', 'llvmpipe t1 Mpix/s', 'quadtex 1 thread', 'ratio',
            'llvmpipe all cores', f'quadtex all cores ({qt_threads_all})', 'ratio',
            'llvmpipe accurate (all cores)', f'quadtex {a.accurate_profile} (all cores)', 'ratio',
            'mean abs diff /255 (default / accurate)', 'within 2/255 (default / accurate)', 'identical (def / acc)']
    rows, per_variant = [], {}
    for name in a.variant_list:
        l1 = timing.get('llvmpipe_t1', {}).get(name, {}).get('mpix_per_s')
        la = timing.get('llvmpipe_tdefault', {}).get(name, {}).get('mpix_per_s')
        lo = timing.get('llvmpipe_tdefault_oracle', {}).get(name, {}).get('mpix_per_s')
        q1 = timing['quadtex_t1'][name]['mpix_s']
        qa = timing['quadtex_tall'][name]['mpix_s']
        qo = timing['quadtex_tall_accurate'][name]['mpix_s']
        fd, fa = frames[name]['default'], frames[name]['accurate']
        per_variant[name] = {
            'llvmpipe_t1_mpix_s': l1, 'quadtex_t1_mpix_s': q1, 'ratio_t1': ratio(q1, l1),
            'llvmpipe_all_mpix_s': la, 'quadtex_all_mpix_s': qa, 'ratio_all': ratio(qa, la),
            'llvmpipe_accurate_all_mpix_s': lo, 'quadtex_accurate_all_mpix_s': qo,
            'ratio_all_vs_accurate': ratio(qo, lo),
            'median_ms': {k: v.get(name, {}).get('median_ms') for k, v in timing.items()},
            'frame_vs_llvmpipe_default': fd, 'frame_vs_llvmpipe_accurate': fa}
        rows.append([name, fmt(l1, '.1f'), fmt(q1, '.1f'), fmt(ratio(q1, l1), '.2f'),
                     fmt(la, '.1f'), fmt(qa, '.1f'), fmt(ratio(qa, la), '.2f'),
                     fmt(lo, '.1f'), fmt(qo, '.1f'), fmt(ratio(qo, lo), '.2f'),
                     f'{fd["mean_abs_diff_255"]:.3f} / {fa["mean_abs_diff_255"]:.3f}',
                     f'{100 * fd["within_2_255"]:.2f}% / {100 * fa["within_2_255"]:.2f}%',
                     f'{"yes" if fd["identical"] else "no"} / {"yes" if fa["identical"] else "no"}'])
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    line = lambda cells: '| ' + ' | '.join(  # noqa: E731
        c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))) + ' |'

    print(header)
    print(head)
    if head_all and head_all != head:
        print(head_all)
    best = '' if a.rounds == 1 else f', the best of {a.rounds} interleaved rounds for each side'
    print(f'llvmpipe: {renderer}; 1920x1080 RGBA8, median of {a.frames} frames after {a.warmup} warm-up{best}; '
          f'ratio = quadtex / llvmpipe Mpix/s (> 1: quadtex faster); accurate = GALLIVM_PERF={ACCURATE_PERF}; '
          f'frame figures compare quadtex ({a.profile}) with llvmpipe default / quadtex ({a.accurate_profile}) '
          f'with llvmpipe accurate')
    print(line(cols))
    print('|' + '|'.join('-' * (w + 2) for w in widths) + '|')
    for r in rows:
        print(line(r))
    for n in notes:
        print('note: ' + n)

    summary = {
        'date': started.isoformat(timespec='seconds'), 'cpu': cpu_model(), 'nproc': nthreads,
        'git_commit': git_commit(), 'quadtex': a.quadtex, 'quadtex_profile': a.profile,
        'quadtex_accurate_profile': a.accurate_profile,
        'quadtex_header': head, 'quadtex_header_all_cores': head_all, 'quadtex_threads_all_cores': qt_threads_all,
        'llvmpipe_renderer': renderer, 'oracle_dir': oracle_dir(), 'frames': a.frames, 'warmup': a.warmup,
        'rounds': a.rounds, 'round_median_ms': rounds,
        'llvmpipe_timing_skipped': a.skip_llvmpipe_timing, 'accurate_gallivm_perf': ACCURATE_PERF,
        'ratio_definition': 'quadtex Mpix/s / llvmpipe Mpix/s',
        'frame_figures': 'mean_abs_diff_255: mean |quadtex - llvmpipe| over all channels in 1/255 units; '
                         'within_2_255: share of pixels whose 4 channels are all within 2/255; '
                         'identical: bit-identical frames',
        'table_header': cols, 'table': rows, 'variants': per_variant, 'notes': notes,
        'files': {'level0': inputs[0], 'shadow': inputs[1], 'frames': fdirs, 'logs': logs},
    }
    path = os.path.join(a.out_dir, 'summary.json')
    with open(path, 'w') as f:
        json.dump(summary, f, indent=1)
    print(f'wrote {path}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
