import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { type ReactNode, useEffect, useState } from "react";
import { useLocation } from "react-router";

/**
 * Accessible tabs (arrow keys move between tabs) built on Headless UI. A link to the screen with a
 * tab's id as its hash (/card-management#issue) opens that tab, also on a screen already open.
 */
export function Tabs({ tabs, label }: { tabs: { id: string; label: string; content: ReactNode }[]; label: string }) {
  const { hash, key } = useLocation();
  const linked = () => Math.max(0, tabs.findIndex((tab) => `#${tab.id}` === hash));
  const [selected, setSelected] = useState(linked);
  useEffect(() => {
    if (hash !== "") setSelected(linked());
  }, [hash, key]);
  return (
    <TabGroup selectedIndex={selected} onChange={setSelected}>
      <TabList aria-label={label} className="inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
        {tabs.map((tab) => (
          <Tab
            key={tab.id}
            className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-700 data-[selected]:bg-white data-[selected]:text-slate-900 data-[selected]:shadow-sm"
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
