import type { SchemaObject } from 'ajv';

const MEDIA_TYPES = ['image', 'video', 'audio', 'document'];
const MEDIA_DELIVERIES = ['inline', 'after_text', 'media_first'];

/** The box-selection fields shared by every send route. */
const selectionProperties = {
  setor_id: { type: 'string', minLength: 1 },
  setor_ids: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 100 },
  team_id: { type: 'string', minLength: 1 },
  multi_number: { type: 'boolean' },
} as const;

/** The media and template fields of POST /v1/messages (under `message`) and of first-contact (top level). */
const contentProperties = {
  media_url: { type: 'string', minLength: 1, maxLength: 2048 },
  media_type: { type: 'string', enum: MEDIA_TYPES },
  media_delivery: { type: 'string', enum: MEDIA_DELIVERIES },
  media_filename: { type: 'string', minLength: 1, maxLength: 255 },
  template_name: { type: 'string', minLength: 1, maxLength: 512 },
  template_language: { type: 'string', minLength: 2, maxLength: 16 },
  template_components: { type: 'array' },
} as const;

export interface SelectionBody {
  setor_id?: string;
  setor_ids?: string[];
  team_id?: string;
  multi_number?: boolean;
}

export interface ContentBody {
  media_url?: string;
  media_type?: string;
  media_delivery?: string;
  media_filename?: string;
  template_name?: string;
  template_language?: string;
  template_components?: unknown[];
}

export interface SendMessageBody extends SelectionBody {
  phone?: string;
  client_id?: string;
  message: ContentBody & { text?: string };
}

export const sendMessageSchema: SchemaObject = {
  type: 'object',
  required: ['message'],
  properties: {
    phone: { type: 'string' },
    client_id: { type: 'string', minLength: 1 },
    ...selectionProperties,
    message: { type: 'object', properties: { text: { type: 'string' }, ...contentProperties } },
  },
};

export interface FirstContactBody extends SelectionBody, ContentBody {
  phone: string;
  name?: string;
  message?: string;
  tags?: string[];
}

export const firstContactSchema: SchemaObject = {
  type: 'object',
  required: ['phone'],
  properties: {
    phone: { type: 'string' },
    name: { type: 'string', maxLength: 255 },
    message: { type: 'string' },
    tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 50 },
    ...selectionProperties,
    ...contentProperties,
  },
};

export interface InteractiveBody extends SelectionBody {
  phone: string;
  interactive: {
    type: 'button' | 'list';
    body: { text: string };
    action: {
      buttons?: { type: 'reply'; reply: { id: string; title: string } }[];
      sections?: { title?: string; rows: { id: string; title: string; description?: string }[] }[];
      button?: string;
    };
  };
}

export const interactiveSchema: SchemaObject = {
  type: 'object',
  required: ['phone', 'interactive'],
  properties: {
    phone: { type: 'string' },
    ...selectionProperties,
    interactive: {
      type: 'object',
      required: ['type', 'body', 'action'],
      properties: {
        type: { type: 'string', enum: ['button', 'list'] },
        body: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
        action: {
          type: 'object',
          properties: {
            buttons: {
              type: 'array',
              items: {
                type: 'object',
                required: ['type', 'reply'],
                properties: {
                  type: { type: 'string', enum: ['reply'] },
                  reply: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string' }, title: { type: 'string' } } },
                },
              },
            },
            sections: {
              type: 'array',
              items: {
                type: 'object',
                required: ['rows'],
                properties: {
                  title: { type: 'string' },
                  rows: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['id', 'title'],
                      properties: { id: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' } },
                    },
                  },
                },
              },
            },
            button: { type: 'string', maxLength: 20 },
          },
        },
      },
    },
  },
};

export interface EventBody extends SelectionBody {
  phone: string;
  event: { name: string; startTime: number; endTime?: number; description?: string; location?: string; extraGuestsAllowed?: boolean };
}

export const eventSchema: SchemaObject = {
  type: 'object',
  required: ['phone', 'event'],
  properties: {
    phone: { type: 'string' },
    ...selectionProperties,
    event: {
      type: 'object',
      required: ['name', 'startTime'],
      properties: {
        name: { type: 'string', maxLength: 255 },
        startTime: { type: 'integer', minimum: 0 },
        endTime: { type: 'integer', minimum: 0 },
        description: { type: 'string', maxLength: 2048 },
        location: { type: 'string', maxLength: 512 },
        extraGuestsAllowed: { type: 'boolean' },
      },
    },
  },
};

export interface PollBody extends SelectionBody {
  phone: string;
  poll: { name: string; options: string[]; multipleAnswers?: boolean };
}

export const pollSchema: SchemaObject = {
  type: 'object',
  required: ['phone', 'poll'],
  properties: {
    phone: { type: 'string' },
    ...selectionProperties,
    poll: {
      type: 'object',
      required: ['name', 'options'],
      properties: {
        name: { type: 'string', maxLength: 255 },
        options: { type: 'array', items: { type: 'string', maxLength: 100 } },
        multipleAnswers: { type: 'boolean' },
      },
    },
  },
};

export const editMessageSchema: SchemaObject = {
  type: 'object',
  required: ['text'],
  properties: { text: { type: 'string' } },
};

export const reactionSchema: SchemaObject = {
  type: 'object',
  required: ['emoji'],
  properties: { emoji: { type: 'string' } },
};
