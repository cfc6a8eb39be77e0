/** A group of boxes; `team_id` sends rotate among them. */
export interface Team {
  id: string;
  companyId: string;
  nome: string;
  setorIds: string[];
  createdAt: Date;
}
