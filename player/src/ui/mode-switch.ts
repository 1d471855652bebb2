// The compare view's choice of how the panes share npm start --network's link, as two links in the top bar: the
// same page with ?mode=competing (one bottleneck) or ?mode=side-by-side (a copy of the link per pane).
import { NETWORK_MODES, NETWORK_MODE_PARAM, type NetworkMode } from '@pcc-stream/protocol';

const MODE_TEXT: Record<NetworkMode, string> = { competing: 'competing on one link', 'side-by-side': 'side by side, a link each' };

export function showModeSwitch(nav: HTMLElement, current: NetworkMode, search: string): void {
  const group = document.createElement('span');
  group.className = 'mode-switch';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', 'how the panes share the network');
  for (const mode of NETWORK_MODES) {
    const query = new URLSearchParams(search);
    query.set(NETWORK_MODE_PARAM, mode);
    const a = document.createElement('a');
    a.href = `?${query.toString()}`;
    a.textContent = MODE_TEXT[mode];
    a.dataset.mode = mode;
    if (mode === current) a.setAttribute('aria-current', 'true');
    group.append(a);
  }
  nav.append(group);
}
