"""Small random corpora for the seed modes: a prepared data dir and class dir written to disk
(the counted implementation reads them like any run) and the same content for brute.py."""
from __future__ import annotations

import os
import random
import types

from termeval.tde.options import TdeOptions


def fmt(us: int) -> str:
    return f"{us / 1e6:.6f}"


def random_corpus(seed: int, nfiles: int = 3, nphones: int = 18, alphabet: str = "abc",
                  nclasses: int = 4):
    rnd = random.Random(seed)
    phones, words, speaker = {}, {}, {}
    for fi in range(nfiles):
        f = f"f{fi}"
        speaker[f] = f"s{fi % 2}"
        t = 0
        ph, wd = [], []
        run = []
        for _ in range(nphones):
            r = rnd.random()
            if r < 0.08:                                   # an explicit SIL
                d = rnd.choice([20, 50]) * 1000
                ph.append((t, t + d, "SIL"))
                t += d
                if run:
                    wd.append((run[0], run[-1])); run = []
                continue
            if r < 0.14:                                   # a gap (pause without a label)
                t += rnd.choice([10, 40]) * 1000
                if run:
                    wd.append((run[0], run[-1])); run = []
            d = rnd.choice([20, 30, 40, 50, 60, 80]) * 1000
            ph.append((t, t + d, rnd.choice(alphabet)))
            if not run:
                run = [t, t + d]
            else:
                run[1] = t + d
            if rnd.random() < 0.4:
                wd.append((run[0], run[1])); run = []
            t += d
        if run:
            wd.append((run[0], run[1]))
        phones[f], words[f] = ph, wd
    # classes: fragments at phone edges or at random times, short (2-6 phones)
    allf = sorted(phones)
    classes = []
    pool = []
    for _ in range(nclasses):
        cl = []
        for _ in range(rnd.randint(1, 5)):
            r = rnd.random()
            if pool and r < 0.15:
                cl.append(rnd.choice(pool))               # the same fragment again (this or another class)
                continue
            f = rnd.choice(allf)
            ph = [p for p in phones[f] if p[2] != "SIL"]
            i = rnd.randrange(len(ph))
            j = min(len(ph) - 1, i + rnd.randint(2, 5))
            s, e = ph[i][0], ph[j][1]
            if rnd.random() < 0.5:
                s += rnd.choice([-12, -5, 5, 12, 25]) * 1000
                e += rnd.choice([-25, -12, -5, 5, 12]) * 1000
                s = max(0, s)
                if e <= s:
                    e = s + 10000
            end = max(p[1] for p in phones[f])
            e = min(e, end)
            if e <= s:
                continue
            cl.append((f, s, e))
            pool.append((f, s, e))
        if cl:
            classes.append(cl)
    if not classes:
        f = allf[0]
        classes = [[(f, phones[f][0][0], phones[f][0][1])]]
    return phones, words, speaker, classes


def write_corpus(root: str, phones, words, speaker, classes) -> types.SimpleNamespace:
    data = os.path.join(root, "data")
    exp = os.path.join(root, "exp")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "phones"), "w") as fh:
        for f in sorted(phones):
            for a, b, lab in sorted(phones[f]):
                fh.write(f"{f} {fmt(a)} {fmt(b)} {lab}\n")
    with open(os.path.join(data, "words"), "w") as fh:
        for f in sorted(words):
            for i, (a, b) in enumerate(sorted(words[f])):
                fh.write(f"{f} {fmt(a)} {fmt(b)} w{i}\n")
    with open(os.path.join(data, "utt2spk"), "w") as fh:
        for f in sorted(speaker):
            fh.write(f"{f} {speaker[f]}\n")
    spk2utt = {}
    for f in sorted(speaker):
        spk2utt.setdefault(speaker[f], []).append(f)
    with open(os.path.join(data, "spk2utt"), "w") as fh:
        for s in sorted(spk2utt):
            fh.write(f"{s} {' '.join(spk2utt[s])}\n")
    with open(os.path.join(data, "reco2dur"), "w") as fh:
        for f in sorted(phones):
            fh.write(f"{f} {fmt(max(p[1] for p in phones[f]))}\n")
    cf = os.path.join(root, "sys.class")
    with open(cf, "w") as fh:
        for ci, cl in enumerate(classes):
            fh.write(f"Class {ci}\n")
            for f, s, e in cl:
                fh.write(f"{f} {fmt(s)} {fmt(e)}\n")
            fh.write("\n")
    return types.SimpleNamespace(data_dir=data, exp_dir=exp, class_file=cf)


def options(corpus: types.SimpleNamespace, mode: str, folds: str = "none", exp_dir: str | None = None) -> TdeOptions:
    """score_tde's options for a written corpus."""
    return TdeOptions(benchmark=mode, folds=folds, data_dir=corpus.data_dir, class_file=corpus.class_file,
                      exp_dir=exp_dir).validate()
