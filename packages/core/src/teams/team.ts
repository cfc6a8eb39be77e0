/** A group of setores; `team_id` sends rotate among them. */
export interface Team {
  id: string;
  companyId: string;
  nome: string;
  setorIds: string[];
  createdAt: Date;
}
