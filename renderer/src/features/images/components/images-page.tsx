import { useState } from 'react';
import { ModelGate } from '../../../components/model-gate';
import { PageHeader } from '../../../components/page-header';
import { Tabs } from '../../../components/tabs';
import { AnalyzePanel } from './analyze-panel';
import { GeneratePanel } from './generate-panel';

type ImageTool = 'generate' | 'analyze';

const TABS: readonly { id: ImageTool; label: string }[] = [
  { id: 'generate', label: 'Generate' },
  { id: 'analyze', label: 'Analyse' },
];

export function ImagesPage() {
  const [tab, setTab] = useState<ImageTool>('generate');
  return (
    <div className="page">
      <PageHeader title="Images" description="Generate images from a prompt, or ask a vision model about an image." />
      <Tabs<ImageTool> tabs={TABS} value={tab} onChange={setTab} label="Image tools" />
      {tab === 'generate' ? (
        <ModelGate capability="image_generation">{(models) => <GeneratePanel models={models} />}</ModelGate>
      ) : (
        <ModelGate capability="vision">{(models) => <AnalyzePanel models={models} />}</ModelGate>
      )}
    </div>
  );
}
