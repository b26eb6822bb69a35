/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** axe-core's browser build, injected into each page under test (the context bypasses the pages' CSP). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.2 AA rule sets, every level up to AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface Violation {
  id: string;
  help: string;
  nodes: string[];
}

/** axe-core's WCAG 2.2 AA violations of the page as it is now: [] when it passes. */
export async function axeViolations(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async (tags) => {
    const axe = (globalThis as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, { runOnly: { type: 'tag', values: tags } })) as {
      violations: Array<{ id: string; help: string; nodes: Array<{ target: string[] }> }>;
    };
    return result.violations.map((violation) => ({
      id: violation.id,
      help: violation.help,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  }, WCAG_TAGS);
}

/**
 * The controls of the page smaller than 44 × 44 px: buttons, text inputs, and links that stand alone (in
 * the navigation, or alone in a paragraph). Checkboxes are 24 px inside a 44 px-high clickable row.
 */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'button, input:not([type=hidden]):not([type=checkbox]), nav a, main > p > a, section > p > a, .choice';
    return Array.from(document.querySelectorAll(selector))
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.height < 44 || (element.tagName !== 'DIV' && box.width < 44));
      })
      .map(
        (element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`,
      );
  });
}

/** True when the page has the responsive viewport meta. */
export function hasViewportMeta(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      document
        .querySelector('meta[name=viewport]')
        ?.getAttribute('content')
        ?.includes('width=device-width') ?? false,
  );
}

/**
 * Text inputs whose border has less than 3:1 contrast against the background behind them (WCAG 1.4.11;
 * axe does not check non-text contrast).
 */
export async function weakInputBorders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const channels = (color: string) => (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
    const luminance = (color: string) => {
      const [r, g, b] = channels(color).map((value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (element: Element | null): string => {
      for (let node = element; node; node = node.parentElement) {
        const color = getComputedStyle(node).backgroundColor;
        if (color && color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') return color;
      }
      return 'rgb(255, 255, 255)';
    };
    return Array.from(document.querySelectorAll('input[type=text], input[type=email], input[type=password]'))
      .filter((input) => {
        const [a, b] = [
          luminance(getComputedStyle(input).borderTopColor),
          luminance(background(input.parentElement)),
        ];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) < 3;
      })
      .map((input) => `#${input.id}`);
  });
}
