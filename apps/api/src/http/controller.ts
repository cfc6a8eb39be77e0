import type { Router } from 'express';

/** A group of routes. Every feature module binds its controllers to this token. */
export interface Controller {
  register(router: Router): void;
}
export const Controller = Symbol.for('carteiro.api.Controller');

/** Controllers of the operator's `/admin/v1` API (mounted behind the admin token). */
export const AdminController = Symbol.for('carteiro.api.AdminController');
