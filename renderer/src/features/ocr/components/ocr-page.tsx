import { ModelGate } from '../../../components/model-gate';
import { PageHeader } from '../../../components/page-header';
import { OcrInspector } from './ocr-inspector';

export function OcrPage() {
  return (
    <div className="page">
      <PageHeader
        title="OCR inspector"
        description="See every box the OCR engine found, how sure it was, and the text it read."
      />
      <ModelGate capability="ocr">{(models) => <OcrInspector models={models} />}</ModelGate>
    </div>
  );
}
