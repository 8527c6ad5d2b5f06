/**
 * uPlot draws on a canvas, where CSS colours do not reach: its axes take the theme's text and line
 * colours from the page as it is drawn (light or dark), or the labels are black on a dark card.
 */
import type uPlotType from 'uplot';

/** An axis in the theme's colours of `el`, with `axis`'s own settings over them. */
export function themedAxis(el: Element, axis: uPlotType.Axis = {}): uPlotType.Axis {
  const style = getComputedStyle(el);
  const text = style.color;
  const line = style.getPropertyValue('--line').trim() || '#d8dce2';
  return { stroke: text, ...axis, grid: { stroke: line, width: 1, ...axis.grid }, ticks: { stroke: line, width: 1, ...axis.ticks } };
}
