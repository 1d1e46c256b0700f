import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';

/** The agent editor's Tests tab, with `testId` picked out (the editor reads `?tab=tests&test=`). */
export function agentTestsPath(agentId: string, testId?: string): string {
  return `/agents/${agentId}?tab=tests${testId ? `&test=${testId}` : ''}`;
}

/** Opens the agent's Tests tab on a test just saved elsewhere (a session page, the Playground menu). */
export function useOpenAgentTests(): (agentId: string, testId?: string) => void {
  const navigate = useNavigate();
  return useCallback((agentId: string, testId?: string) => navigate(agentTestsPath(agentId, testId)), [navigate]);
}
