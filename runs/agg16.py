import json, collections, sys
rows=json.load(open(sys.argv[1]))
L=json.load(open('runs/lang16.json'))
for r in rows:
    r['glang']=L['goals'][str(r['id'])]; r['plang']=L['pages'][r['page']]; r['cross']=r['glang']!=r['plang']
def agg(rs):
    it=sum(r['items'] for r in rs)
    return f"goals {len(rs)} items {it} default {sum(r['kept'] for r in rs)} ({sum(r['kept'] for r in rs)/it:.3f}, case {sum(r['kept']==r['items'] for r in rs)/len(rs):.3f}) bm25-400 {sum(r['bm_kept'] for r in rs)} ({sum(r['bm_kept'] for r in rs)/it:.3f}) pruning {sum(r['pruning'] for r in rs)/len(rs):.1%}"
cross=[r for r in rows if r['cross']]; rest=[r for r in rows if not r['cross']]
print('cross', agg(cross)); print('rest ', agg(rest)); print('all  ', agg(rows))
for lab, rs in (('cross',cross),('rest',rest)):
    print(lab, 'unseen-share>=0.5:', agg([r for r in rs if r['terms'] and r['unseen']/r['terms']>=0.5]))
print(collections.Counter((r['glang'],r['plang'],r['pscript']) for r in cross).most_common(20))
print(collections.Counter((r['plang'],r['pscript']) for r in rows).most_common(20))
print(collections.Counter(r['page'] for r in cross).most_common(30))
for lab, rs in (('cross',cross),('rest',rest)):
    c=collections.Counter(); cu=collections.Counter()
    for r in rs:
        for m in r.get('miss',[]):
            c[m['why']]+=1; cu[(m['why'], 'unspent' if m['budget_unspent'] else 'spent')]+=1
    print(lab, dict(c)); print('   ', dict(cu))
