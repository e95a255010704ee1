// An element's rendered width, measured before the first paint and followed with a
// ResizeObserver (null until measured; `fallback` where there is no layout, as in jsdom).
import { useLayoutEffect, useRef, useState } from 'react';

export function useElementWidth<E extends HTMLElement>(fallback: number) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = (measured: number) => setWidth(measured > 0 ? Math.floor(measured) : (current) => current ?? fallback);
    measure(element.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(([entry]) => measure(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, [fallback]);
  return [ref, width] as const;
}
