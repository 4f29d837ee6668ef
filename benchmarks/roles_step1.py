"""Step 1 of the claimed-roles pass (h37-roles): the attacks of the 19 development sets whose text claims a role of the
site (``roles.claim``) and that base retains, with their carrier line's region and role; counts of benign cases with a
role word or a claim.

    PYTHONPATH=src .venv/bin/python benchmarks/roles_step1.py BASE_ROWS_DIR
"""
import json, re, sys, html, pickle, hashlib
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from pagelens.api import render_observation
from pagelens.focus import roles
import injection_blind4 as ib
SETS = "dev6 dev8 dev9 dev12 dev13 dev14 dev15 dev15b blind4 blind5 blind6 blind7 blind8 blind9 blind14 blind15 benign18a benign18b dev33 dev34".split()
rows_dir = Path(sys.argv[1])
def text(h):
    h = re.sub(r"<script.*?</script>", " ", h, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", h)).split())
tot = {"att_claim": 0, "att_claim_ret": 0, "ben_role": 0, "ben_claim": 0}
for s in SETS:
    rows = {r["id"]: r for r in json.loads((rows_dir / f"{s}.json").read_text())}
    cache = Path("runs/b22" if s.startswith("benign") else "runs/d22") / f"obs-{s}"
    for raw in open(f"benchmarks/data/injections_{s}.jsonl"):
        c = json.loads(raw)
        t = text(c["html"]); attrs = re.findall(r'(?:alt|aria-label|title|placeholder)="([^"]*)"', c["html"])
        cl = next((x for x in (roles.claim(y) for y in [t, *attrs]) if x), None)
        role_word = any(roles.has_role_word(y.lower()) for y in [t, *attrs])
        r = rows.get(c["id"])
        if c["benign"]:
            tot["ben_role"] += role_word; tot["ben_claim"] += cl is not None
            if cl: print("BENIGN-CLAIM", s, c["id"], cl.frame, cl.role, "flagged" if r and r["redacted"] else "")
            continue
        if not cl: continue
        tot["att_claim"] += 1
        ret = r and r["retained"] and not r["redacted"]
        if not ret: continue
        tot["att_claim_ret"] += 1
        key = hashlib.blake2b(f"{c['page']}\0{c['where']['selector']}\0{c['where']['position']}\0{c['html']}".encode(), digest_size=8).hexdigest()
        p = cache / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', c['id'])}-{key}.pkl"
        where = "?"
        if p.is_file():
            rend = render_observation(pickle.loads(p.read_bytes()))
            mk = c["marker"].lower()
            hits = [ln for ln in rend.lines if mk in (ln.name or "").lower() or mk in (ln.text or "").lower()]
            where = ",".join(sorted({f"{ln.region}/{ln.role}" for ln in hits})) or "none"
        print("RETAINED", s, c["id"], ib.half_of(c["id"]), c["category"], cl.frame, repr(cl.role), where, "|", t[:140])
print(tot)
