// What a demo page shows per pane, read the way a test checks it: the points each chart drew (by series label) and
// the summary card's figures after Stop (each `dd[data-qoe]` carries its raw value).
import type { Page } from 'playwright-core';

/** Per chart of pane `index`, in page order: how many points each series drew, by its legend label. */
export function chartPoints(page: Page, index: number): Promise<Array<Record<string, number>>> {
  return page.locator(`section.pane[data-session="${index}"] .chart`).evaluateAll((charts) =>
    charts.map((c) => JSON.parse((c as HTMLElement).dataset.points ?? '{}') as Record<string, number>));
}

/** The summary card of pane `index`: each figure by its QoE name (null where the card shows none). */
export function summaryCard(page: Page, index: number): Promise<Record<string, number | null>> {
  return page.locator(`section.pane[data-session="${index}"] .summary-card dd[data-qoe]`).evaluateAll((dds) => Object.fromEntries(dds.map((d) => {
    const el = d as HTMLElement;
    return [el.dataset.qoe!, el.dataset.value === undefined ? null : Number(el.dataset.value)];
  })) as Record<string, number | null>);
}

/** The viewer's Stop, then every pane's card, and a moment for the link's last bins (they close a second after
 *  they end), which the cards take in as they arrive. */
export async function stopForCards(page: Page, panes: number): Promise<void> {
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('.summary-card').length === n, panes, { timeout: 5000 });
  await page.waitForTimeout(3000);
}
