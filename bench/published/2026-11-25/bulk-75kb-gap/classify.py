# Lossless vivace MIs with an RTT-gradient penalty, by the MI's wire rate and whether it sent above its target (a catch-up).
# Usage: classify.py MI_SUMMARY_JSON... (replay.ts FILE --summary --json)
import json,sys,statistics as st
for f in sys.argv[1:]:
    d=json.load(open(f))['mis']; t0=d[0]['t_s']
    ms=[m for m in d if m['t_s']-t0>2 and m['packets']>=10 and m['sent_mbps']>0]
    def pen(m): x=m['sent_mbps']; return m['loss']==0 and m['utility']< x**0.9-4.5*x
    P=[m for m in ms if pen(m)]
    cap=[m for m in P if m['wire_mbps']>=97]
    catch=[m for m in P if m['wire_mbps']<97 and m['sent_mbps']>1.03*m['target_mbps']]
    below=[m for m in P if m['wire_mbps']<97 and m['sent_mbps']<=1.03*m['target_mbps']]
    allbelow=[m for m in ms if m['loss']==0 and m['wire_mbps']<97 and m['sent_mbps']<=1.03*m['target_mbps']]
    print(f,'MIs',len(ms),'pen lossless',len(P),'| wire>=97:',len(cap),'catch-up (sent>1.03 target):',len(catch),'below cap & not catch-up:',len(below),
      'of %d such MIs (%.0f%%)'%(len(allbelow),100*len(below)/len(allbelow)),
      '| below: med grad %.3f, med rtt spread %.1f ms, med ack/send %.2f recv/send %.2f; unpenalised same class: spread %.1f'%(
        st.median(m['rtt_gradient'] for m in below), st.median(m['rtt_spread_ms'] for m in below), st.median(m['ack_compression'] for m in below), st.median(m['recv_compression'] for m in below),
        st.median(m['rtt_spread_ms'] for m in allbelow if not pen(m))))
    tg=[m['target_mbps'] for m in ms]; print('   target quartiles', [round(x,1) for x in st.quantiles(tg,n=4)], 'wire of lossy MIs med %.1f'%st.median([m['wire_mbps'] for m in ms if m['loss']>0] or [0]))
