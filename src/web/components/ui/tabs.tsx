import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { type ReactNode, useEffect, useState } from "react";
import { useLocation, useSearchParams } from "react-router";

interface TabDef {
  id: string;
  label: string;
  content: ReactNode;
}

const linkedIndex = (tabs: readonly TabDef[], hash: string) => tabs.findIndex((tab) => `#${tab.id}` === hash);

/**
 * The selected tab. A link whose hash is a tab's id (/card-management#issue, from the New menu) opens
 * that tab, also on a screen already open. With `param` the selection lives in the address under it
 * (the tab's id), so that a reload or a shared link opens the same tab; the first tab when the address
 * names none or one that is not there.
 */
function useSelectedTab(tabs: readonly TabDef[], param: string | undefined) {
  const { hash, key } = useLocation();
  const [params, setParams] = useSearchParams();
  const [local, setLocal] = useState(() => Math.max(0, linkedIndex(tabs, hash)));
  const select = (index: number) => {
    setLocal(index);
    if (!param) return;
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (index === 0) next.delete(param);
      else next.set(param, tabs[index].id);
      return next;
    }, { replace: true });
  };
  useEffect(() => {
    const linked = linkedIndex(tabs, hash);
    if (linked >= 0) select(linked);
  }, [hash, key]);
  if (!param) return { selectedIndex: local, select };
  // A linked tab shows from the first render; the effect then moves it from the hash into `param`.
  const linked = linkedIndex(tabs, hash);
  const named = tabs.findIndex((tab) => tab.id === params.get(param));
  return { selectedIndex: linked >= 0 ? linked : Math.max(0, named), select };
}

/**
 * Accessible tabs (arrow keys move between tabs) built on Headless UI. The tabs stay on one row; when
 * the window is narrower than they are, the row scrolls sideways (a tab scrolls into view as it gets
 * focus).
 */
export function Tabs({ tabs, label, urlParam }: { tabs: TabDef[]; label: string; urlParam?: string }) {
  const selected = useSelectedTab(tabs, urlParam);
  return (
    <TabGroup selectedIndex={selected.selectedIndex} onChange={selected.select}>
      <TabList
        aria-label={label}
        className="flex w-max max-w-full gap-1 overflow-x-auto rounded-lg bg-slate-100 p-1 [scrollbar-width:thin]"
      >
        {tabs.map((tab) => (
          <Tab
            key={tab.id}
            className="shrink-0 whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 data-[selected]:bg-white data-[selected]:text-slate-900 data-[selected]:shadow-sm"
          >
            {tab.label}
          </Tab>
        ))}
      </TabList>
      <TabPanels className="mt-4">
        {tabs.map((tab) => <TabPanel key={tab.id}>{tab.content}</TabPanel>)}
      </TabPanels>
    </TabGroup>
  );
}
