// Custom search attributes (registered from temporal-dev.yaml) so operators filter in the Web UI.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const WorkspaceAttr = defineSearchAttributeKey('DistillWorkspace', SearchAttributeType.KEYWORD);
export const TemplateAttr = defineSearchAttributeKey('DistillTemplate', SearchAttributeType.KEYWORD);
export const FlowAttr = defineSearchAttributeKey('DistillFlow', SearchAttributeType.KEYWORD);
export const StatusAttr = defineSearchAttributeKey('DistillStatus', SearchAttributeType.KEYWORD);
export const KindAttr = defineSearchAttributeKey('DistillKind', SearchAttributeType.KEYWORD);
