/** Connection state of a box's channel session. */
export type InstanceStatus = 'disconnected' | 'connecting' | 'connected';

/** The channel session of one box (one per box; created again it is reused). */
export interface ChannelInstance {
  id: string;
  companyId: string;
  setorId: string;
  status: InstanceStatus;
  /** E.164 number of the connected phone; null until connected. */
  phoneNumber: string | null;
  /** The provider's name for the session, when the provider has one. */
  providerRef: string | null;
  proxyConfigured: boolean;
  /** When the current QR code was first requested (the simulator scans a delay after it). */
  qrRequestedAt: Date | null;
  connectedAt: Date | null;
  disconnectedAt: Date | null;
  profileName: string | null;
  profilePictureUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}
