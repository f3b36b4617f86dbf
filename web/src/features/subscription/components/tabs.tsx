import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef<K extends string> {
  key: K;
  label: string;
}

/**
 * An accessible tab list (WAI-ARIA tabs: arrow keys move between tabs, only the selected tab is in
 * the tab order). The panel of the selected tab is the only one rendered.
 */
export function Tabs<K extends string>({ tabs, selected, onSelect, children }: { tabs: readonly TabDef<K>[]; selected: K; onSelect: (key: K) => void; children: ReactNode }) {
  const id = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const index = tabs.findIndex((t) => t.key === selected);
    const next = tabs[(index + step + tabs.length) % tabs.length]!;
    onSelect(next.key);
    listRef.current?.querySelector<HTMLButtonElement>(`[data-tab="${next.key}"]`)?.focus();
  };
  return (
    <div className="sub-tabs">
      <div className="sub-tabs__list" role="tablist" ref={listRef} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.key}`}
            aria-controls={`${id}-panel`}
            aria-selected={tab.key === selected}
            tabIndex={tab.key === selected ? 0 : -1}
            data-tab={tab.key}
            className="sub-tabs__tab"
            onClick={() => onSelect(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${selected}`} className="sub-tabs__panel">
        {children}
      </div>
    </div>
  );
}
