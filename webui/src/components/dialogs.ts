import { lazyDialog } from './lazyDialog';

// The dialogs that public pages offer, each loaded when first opened (see lazyDialog).

/** The price request form (RequestPriceDialog.tsx), for one business or several. */
export const RequestPriceDialog = lazyDialog(() => import('./RequestPriceDialog').then((m) => m.RequestPriceDialog));

/** The report form (ReportDialog.tsx) for a profile or a review. */
export const ReportDialog = lazyDialog(() => import('./ReportDialog').then((m) => m.ReportDialog));

/** The claim form (ClaimDialog.tsx) for a listing the admins made. */
export const ClaimDialog = lazyDialog(() => import('./ClaimDialog').then((m) => m.ClaimDialog));
