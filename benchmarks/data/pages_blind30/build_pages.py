"""Build benchmarks/data/pages_blind30 from the extracted Debian packages (h41-goals30); see SOURCES.md.

Run: python3 build_pages.py OUTDIR, after extracting each .deb with `dpkg-deb -x PKG.deb /tmp/h41g30/x/PKG`."""
import bz2, re, sys, html
from pathlib import Path
X = Path('/tmp/h41g30/x')
OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)

def strip_scripts(t):
    t = re.sub(r'<script\b.*?</script\s*>', '', t, flags=re.S | re.I)
    t = re.sub(r'<noscript\b.*?</noscript\s*>', '', t, flags=re.S | re.I)
    t = re.sub(r'\son(click|change|load|submit|mouseover|mouseout)\s*=\s*("[^"]*"|\'[^\']*\')', '', t, flags=re.I)
    return t

# ---- W3C Markup Validator: expand its server-side includes (what Apache mod_include does)
VROOT = X / 'w3c-markup-validator/usr/share/w3c-markup-validator/html'
def ssi(path, env):
    t = path.read_text(encoding='utf-8')
    out, pos = [], 0
    stack = [True]
    for m in re.finditer(r'<!--#(\w+)(.*?)-->', t, re.S):
        if all(stack):
            out.append(t[pos:m.start()])
        pos = m.end()
        cmd, args = m.group(1), dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        if cmd == 'if':
            e = args.get('expr', '')
            mm = re.match(r'\$(\w+)\s*=\s*(\S+)$', e.strip())
            stack.append(bool(mm) and env.get(mm.group(1)) == mm.group(2))
            continue
        if cmd == 'else':
            stack[-1] = not stack[-1]; continue
        if cmd == 'endif':
            stack.pop(); continue
        if not all(stack):
            continue
        if cmd == 'set':
            env[args['var']] = args['value']
        elif cmd == 'echo':
            out.append(env.get(args['var'], ''))
        elif cmd == 'include':
            v = args['virtual']
            inc = (VROOT / v.lstrip('/')) if v.startswith('/') else (path.parent / v)
            if not inc.exists():
                inc = VROOT / v
            out.append(ssi(inc, env))
    out.append(t[pos:])
    return ''.join(out)

for src, name in (('index.html', 'b30-w3cv-check'), ('docs/help.html', 'b30-w3cv-help')):
    t = ssi(VROOT / src, {})
    t = re.sub(r'<style type="text/css" media="all">\s*@import[^<]*</style>', '', t)
    t = strip_scripts(t)
    (OUT / f'{name}.html').write_text(t, encoding='utf-8')

# ---- Xymon CGI pages: header + form + footer with the CGI's macros filled with a small sample site
XW = X / 'xymon/etc/xymon/web'
menu = (X / 'xymon/etc/xymon/xymonmenu.cfg').read_text()
menu = menu.replace('$XYMONSERVERWWWURL', '/xymon').replace('$XYMONSERVERCGIURL', '/xymon-cgi').replace('$XYMONSERVERSECURECGIURL', '/xymon-seccgi')
css = (X / 'xymon/usr/share/xymon/gifs/xymonbody.css').read_text() + '\n' + (X / 'xymon/var/lib/xymon/www/menu/xymonmenu-blue.css').read_text()
HOSTS = ['db01.example.net', 'db02.example.net', 'gw-core.example.net', 'mail.example.net', 'web01.example.net', 'web02.example.net']
def opts(vals, sel=None):
    return ''.join(f'<option value="{v}"{" selected" if v == sel else ""}>{l}</option>' for v, l in vals)
MONTHS = ['January','February','March','April','May','June','July','August','September','October','November','December']
common = {
 'HTMLCONTENTTYPE': 'text/html; charset=utf-8', 'XYMONBODYCSS': '', 'XYMONBODYMENUCSS': '', 'XYMONSKIN': '/xymon/gifs',
 'XYMWEBBACKGROUND': 'blue', 'XYMWEBDATE': 'Mon Dec  7 21:40:12 2026', 'XYMONBODYHEADER': menu, 'XYMONBODYFOOTER': '',
 'XYMONDREL': '4.3.30', 'XYMONLOGO': 'Xymon', 'SCRIPT_NAME': '/xymon-seccgi/enadis.sh', 'JSHOSTLIST': '',
 'HOSTLIST': opts([(h, h) for h in HOSTS]), 'HOSTFILTER': '', 'PAGEFILTER': '', 'IPFILTER': '', 'CLASSFILTER': '',
 'REPMONLIST': opts([(i+1, m) for i, m in enumerate(MONTHS)], 12), 'REPDAYLIST': opts([(d, d) for d in range(1, 32)], 7),
 'FUTUREYEARLIST': opts([(y, y) for y in (2026, 2027, 2028, 2029, 2030)], 2026),
 'REPHOURLIST': opts([(h, f'{h:02d}') for h in range(24)], 21), 'REPMINLIST': opts([(m, f'{m:02d}') for m in range(0, 60, 5)], 40),
 'DISABLELIST': ('<TR><TH>Host</TH><TH>Test</TH><TH>Disabled until</TH></TR>'
   '<TR><TD>db02.example.net</TD><TD>disk</TD><TD>Tue Dec  8 06:00:00 2026<BR><I>Cause: SAN firmware upgrade</I>'
   '<FORM METHOD="POST" ACTION="/xymon-seccgi/enadis.sh"><INPUT TYPE=SUBMIT NAME=go VALUE="Enable"></FORM></TD></TR>'
   '<TR><TD>web02.example.net</TD><TD>http</TD><TD>OK<BR><I>Cause: Moved behind new load balancer</I>'
   '<FORM METHOD="POST" ACTION="/xymon-seccgi/enadis.sh"><INPUT TYPE=SUBMIT NAME=go VALUE="Enable"></FORM></TD></TR>'),
 'SCHEDULELIST': ('<TR><TH>ID</TH><TH>When</TH><TH>Command</TH></TR>'
   '<TR><TD>17</TD><TD>Sat Dec 12 02:00:00 2026</TD><TD>disable mail.example.net.smtp 240 Mailbox migration'
   '<FORM METHOD="POST" ACTION="/xymon-seccgi/enadis.sh"><INPUT TYPE=SUBMIT NAME=canceljob VALUE="Cancel"></FORM></TD></TR>'),
 'PAGEPATH_DROPDOWN': opts([('', 'All pages'), ('dc1', 'Datacenter 1'), ('dc1/web', 'Datacenter 1/Web servers'), ('dc2', 'Datacenter 2')]),
 'GENERICLIST': opts([(u, u) for u in ('admin', 'anna', 'noc', 'ops-ro')]),
}
for k in ('EVENTLASTYEARBEGIN','EVENTCURRYEARBEGIN','EVENTLASTMONTHBEGIN','EVENTCURRMONTHBEGIN','EVENTLASTWEEKBEGIN','EVENTCURRWEEKBEGIN','EVENTYESTERDAY','EVENTTODAY','EVENTNOW'):
    common[k] = ''
crit = dict(common)
crit.update({'SCRIPT_NAME': '/xymon-seccgi/criticaleditor.sh', 'XYMWEBHOST': 'db01.example.net', 'XYMWEBSVC': 'cpu',
  'CRITEDITPRIOLIST': opts([(1, '1 (highest)'), (2, '2'), (3, '3 (lowest)')], 2),
  'CRITEDITGROUP': 'dba-oncall', 'CRITEDITSTART': '', 'CRITEDITEND': '',
  'CRITEDITMONLIST1': opts([(i+1, m) for i, m in enumerate(MONTHS)], 12), 'CRITEDITMONLIST2': opts([(i+1, m) for i, m in enumerate(MONTHS)], 12),
  'CRITEDITDAYLIST1': opts([(d, d) for d in range(1, 32)], 7), 'CRITEDITDAYLIST2': opts([(d, d) for d in range(1, 32)], 31),
  'CRITEDITYEARLIST1': opts([(y, y) for y in (2026, 2027, 2028)], 2026), 'CRITEDITYEARLIST2': opts([(y, y) for y in (2026, 2027, 2028)], 2027),
  'CRITEDITWKDAYS': '*', 'CRITEDITEXTRA': 'Page the DBA on duty before restarting', 'CRITEDITUPDINFO': 'Last updated by anna on Fri Dec  4 10:12:55 2026',
  'CRITEDITCLONELIST': opts([(h, h) for h in ('db02.example.net',)])})
def xymon(kind, name, macros):
    t = ''.join((XW / f'{kind}_{p}').read_text(encoding='latin-1') for p in ('header', 'form', 'footer') if (XW / f'{kind}_{p}').exists())
    t = re.sub(r'&([A-Z][A-Z0-9_]*)', lambda m: str(macros.get(m.group(1), m.group(0))), t)
    t = strip_scripts(t)
    t = re.sub(r'<link rel="stylesheet"[^>]*>', '', t, flags=re.I)
    t = re.sub(r'</HEAD>', f'<style>{css}</style></HEAD>', t, count=1, flags=re.I)
    left = re.findall(r'&[A-Z][A-Z0-9_]{3,}', t)
    if left: print(name, 'unfilled', sorted(set(left)))
    (OUT / f'{name}.html').write_text(t, encoding='utf-8')
xymon('maint', 'b30-xymon-maint', common)
xymon('critedit', 'b30-xymon-critedit', crit)
ev = dict(common); ev['SCRIPT_NAME'] = '/xymon-cgi/eventlog.sh'
xymon('event', 'b30-xymon-eventlog', ev)
ua = dict(common); ua['SCRIPT_NAME'] = '/xymon-seccgi/useradm.sh'
xymon('useradm', 'b30-xymon-useradm', ua)
# xymon's hosts.cfg(5) manual page (man2html), as shipped
t = (X / 'xymon/usr/share/xymon/help/manpages/man5/hosts.cfg.5.html').read_text(encoding='latin-1')
(OUT / 'b30-xymon-hostscfg.html').write_text(t.replace('<HTML><HEAD>', '<HTML><HEAD><META charset="utf-8">', 1), encoding='utf-8')

# ---- Okular handbook translations: the KDE help cache (all chapter files of index.docbook rendered by meinproc)
KH = X / 'okular/usr/share/doc/HTML'
def okular(lang, files, name):
    t = bz2.open(KH / lang / 'okular/index.cache.bz2', 'rt', encoding='utf-8').read()
    parts = {m.group(1): m.group(2) for m in re.finditer(r'<FILENAME filename="([^"]*)">(.*?)(?=<FILENAME filename=|\Z)', t, re.S)}
    first = parts[files[0]]
    head = re.search(r'<head>.*?</head>', first, re.S).group(0)
    head = re.sub(r'<link rel="stylesheet"[^>]*>', '', head)
    bodies = []
    for f in files:
        b = re.search(r'<body[^>]*>(.*?)(?:</body>|</FILENAME>|\Z)', parts[f], re.S).group(1)
        b = re.sub(r'<img src="help:[^"]*"[^>]*>', '', b)
        bodies.append(f'<div class="kdefile" id="file-{f[:-5]}">{b}</div>')
    lang_attr = lang.replace('_', '-')
    (OUT / f'{name}.html').write_text(f'<!DOCTYPE html><html lang="{lang_attr}">{head}<body>' + '\n'.join(bodies) + '</body></html>', encoding='utf-8')
okular('nl', ['annotations.html'], 'b30-okular-nl-annotations')
okular('sv', ['configure.html', 'configgeneral.html', 'configaccessibility.html', 'configperformance.html', 'configpresentation.html', 'configannotations.html', 'configeditor.html'], 'b30-okular-sv-configure')
okular('pt_BR', ['primary-menu-items.html', 'menuedit.html', 'menuview.html', 'menugo.html', 'menubookmarks.html', 'menutools.html', 'settings-help-menu.html'], 'b30-okular-ptbr-menus')

# ---- SQLAlchemy 1.4 changelog (Sphinx), scripts and missing stylesheets dropped
SQ = X / 'python-sqlalchemy-doc/usr/share/doc/python-sqlalchemy-doc/html'
t = (SQ / 'changelog/changelog_14.html').read_text(encoding='utf-8')
t = strip_scripts(t)
(OUT / 'b30-sqla-changelog14.html').write_text(t, encoding='utf-8')
for p in sorted(OUT.glob('*.html')):
    print(p.name, p.stat().st_size)
