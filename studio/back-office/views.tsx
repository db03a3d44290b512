import { Stack, Tab, TabList, TabPanel } from '@sanity/ui';
import { useState, type ComponentType } from 'react';

import { AccessLogView } from './access-log-view';
import { useWords } from './i18n';
import { NoticesView } from './notices-view';
import { PersonView } from './person-view';
import { RequestsView } from './requests-view';
import { SubscribersView } from './subscribers-view';

type ViewId = 'requests' | 'subscribers' | 'notices' | 'person' | 'access-log';

const VIEWS: { id: ViewId; View: ComponentType; adminOnly?: true }[] = [
  { id: 'requests', View: RequestsView },
  { id: 'subscribers', View: SubscribersView },
  { id: 'notices', View: NoticesView },
  { id: 'person', View: PersonView },
  { id: 'access-log', View: AccessLogView, adminOnly: true },
];

const tabId = (id: ViewId) => `back-office-tab-${id}`;
const panelId = (id: ViewId) => `back-office-panel-${id}`;

/**
 * The tool's views as tabs (arrow keys move between them). Only the open one is rendered, so each view
 * asks the server only when it is looked at; the access log is only for administrators.
 */
export function Views({ admin }: { admin: boolean }) {
  const t = useWords();
  const [open, setOpen] = useState<ViewId>('requests');
  const views = VIEWS.filter((view) => admin || !view.adminOnly);
  return (
    <Stack gap={4}>
      <TabList gap={1}>
        {views.map(({ id }) => (
          <Tab
            key={id}
            id={tabId(id)}
            aria-controls={panelId(id)}
            label={t(`tab.${id}`)}
            selected={open === id}
            onClick={() => setOpen(id)}
          />
        ))}
      </TabList>
      {views.map(({ id, View }) => (
        <TabPanel key={id} id={panelId(id)} aria-labelledby={tabId(id)} hidden={open !== id}>
          {open === id ? <View /> : null}
        </TabPanel>
      ))}
    </Stack>
  );
}
