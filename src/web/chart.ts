/**
 * What the pages' uPlot charts share: axes in the theme's colours (uPlot draws on a canvas, where
 * CSS colours do not reach: drawn as the page is, light or dark, or the labels are black on a dark
 * card), and a chart that follows its box's width and is destroyed with it.
 */
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';
import type uPlotType from 'uplot';

/** The chart's height at a box `width` wide: phones get a lower one. */
export type Heights = readonly [phone: number, wider: number];

/** Keeps `plot` as wide as `box` (at `heights`), and destroys it when the box goes. */
export function useChartBox(box: RefObject<HTMLDivElement | null>, plot: { current: uPlotType | null }, heights: Heights): void {
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth, height: chartHeight(el.clientWidth, heights) }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

export const chartHeight = (width: number, [phone, wider]: Heights): number => (width < 500 ? phone : wider);

/** An axis in the theme's colours of `el`, with `axis`'s own settings over them. */
export function themedAxis(el: Element, axis: uPlotType.Axis = {}): uPlotType.Axis {
  const style = getComputedStyle(el);
  const text = style.color;
  const line = style.getPropertyValue('--line').trim() || '#d8dce2';
  return { stroke: text, ...axis, grid: { stroke: line, width: 1, ...axis.grid }, ticks: { stroke: line, width: 1, ...axis.ticks } };
}
