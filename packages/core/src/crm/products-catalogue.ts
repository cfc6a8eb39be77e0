import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { CrmRepositories } from './crm-repositories.js';
import { createProduct, type NewProduct, type Product, type ProductFilter } from './product.js';

/** `GET /v1/crm/products`: by name. */
export class ListProducts {
  constructor(private readonly repos: Repositories<CrmRepositories>) {}
  execute(companyId: string, filter: ProductFilter, page: PageRequest): Promise<Page<Product>> {
    return this.repos.products.list(companyId, filter, page);
  }
}

/** `POST /v1/crm/products`: a name or SKU already in the catalogue is 409 CONFLICT naming the field. */
export class CreateProduct {
  constructor(
    private readonly uow: UnitOfWork<CrmRepositories>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}
  async execute(companyId: string, input: NewProduct): Promise<Product> {
    const product = createProduct(this.ids.newId(), companyId, this.clock.now(), input);
    const conflict = await this.uow.transaction((repos) => repos.products.insert(product));
    if (conflict) throw new DomainError('CONFLICT', `A product with this ${conflict} already exists`, { field: conflict });
    return product;
  }
}
