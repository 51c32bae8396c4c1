// The engine worker's client, one per page, and how many requests are on
// their way (the page's busy signal).
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { EngineClient } from '../engine/client';

interface EngineState {
  client: EngineClient;
  pending: number;
}

const EngineContext = createContext<EngineState | null>(null);

export function assetUrl(path: string): string {
  return new URL(path, document.baseURI).href;
}

export function EngineProvider({ children }: { children: ReactNode }) {
  const client = useMemo(() => new EngineClient(assetUrl('engine/asys_engine.mjs')), []);
  const [pending, setPending] = useState(0);
  useEffect(() => client.onBusyChange(setPending), [client]);
  const value = useMemo(() => ({ client, pending }), [client, pending]);
  return <EngineContext.Provider value={value}>{children}</EngineContext.Provider>;
}

export function useEngine(): EngineState {
  const v = useContext(EngineContext);
  if (!v) throw new Error('useEngine outside EngineProvider');
  return v;
}
